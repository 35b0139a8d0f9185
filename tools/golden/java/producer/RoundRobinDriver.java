// kpart's own driver (no Kafka code): runs a Kafka release's
// org.apache.kafka.clients.producer.RoundRobinPartitioner as that release's KafkaProducer.doSend
// drives a configured partitioner, on the cases of tools/golden/rr_inputs.py (stdin, one a line).
//
// Per send [topic, cluster_index, new_batch]: partition(topic, null, null, null, null, cluster).
// If the release's Partitioner interface still has onNewBatch (up to 3.9: KafkaProducer appends
// with abortOnNewBatch = true when a partitioner is configured) and the accumulator would need a
// new batch for that first partition (new_batch), the producer calls
// onNewBatch(topic, cluster, firstPartition) and partition(...) again; the record goes to the
// second answer. From 4.0 (KAFKA-18295) the producer partitions a record once: new_batch has no
// effect. Writes {"id", "expected": [partition per send], "on_new_batch": bool}. The key and value
// are null (RoundRobinPartitioner ignores them). See tools/golden/README.md.
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.clients.producer.RoundRobinPartitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

public class RoundRobinDriver {
    /** topic -> leaders (null: no leader); one Node per broker id named. */
    static Cluster cluster(JsonObject spec) {
        Map<Integer, Node> nodes = new TreeMap<>();
        List<PartitionInfo> parts = new ArrayList<>();
        for (Map.Entry<String, JsonElement> t : spec.entrySet()) {
            JsonArray leaders = t.getValue().getAsJsonArray();
            for (int p = 0; p < leaders.size(); p++) {
                Node leader = null;
                if (!leaders.get(p).isJsonNull()) {
                    int id = leaders.get(p).getAsInt();
                    leader = nodes.computeIfAbsent(id, i -> new Node(i, "broker-" + i, 9092));
                }
                Node[] replicas = leader == null ? new Node[0] : new Node[] {leader};
                parts.add(new PartitionInfo(t.getKey(), p, leader, replicas, replicas));
            }
        }
        return new Cluster("kpart", new ArrayList<>(nodes.values()), parts,
                Collections.emptySet(), Collections.emptySet());
    }

    public static void main(String[] args) throws Exception {
        Method onNewBatch = null;
        try {
            onNewBatch = Partitioner.class.getMethod("onNewBatch", String.class, Cluster.class, int.class);
        } catch (NoSuchMethodException absent) {
            // 4.0+: KAFKA-18295 removed it; the producer partitions a record once
        }
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            JsonObject c = JsonParser.parseString(line).getAsJsonObject();
            List<Cluster> clusters = new ArrayList<>();
            for (JsonElement s : c.getAsJsonArray("clusters")) clusters.add(cluster(s.getAsJsonObject()));
            Partitioner partitioner = new RoundRobinPartitioner();
            partitioner.configure(Collections.emptyMap());
            JsonArray expected = new JsonArray();
            for (JsonElement e : c.getAsJsonArray("sends")) {
                JsonArray send = e.getAsJsonArray();
                String topic = send.get(0).getAsString();
                Cluster cluster = clusters.get(send.get(1).getAsInt());
                boolean newBatch = send.get(2).getAsBoolean();
                int partition = partitioner.partition(topic, null, null, null, null, cluster);
                if (newBatch && onNewBatch != null) {
                    onNewBatch.invoke(partitioner, topic, cluster, partition);
                    partition = partitioner.partition(topic, null, null, null, null, cluster);
                }
                expected.add(partition);
            }
            partitioner.close();
            JsonObject o = new JsonObject();
            o.addProperty("id", c.get("id").getAsString());
            o.add("expected", expected);
            o.addProperty("on_new_batch", onNewBatch != null);
            out.println(o);
        }
        out.flush();
    }
}
