// kpart's own driver (no Kafka code): runs a Kafka release's default partitioner classes for
// records without (or with) a key -- org.apache.kafka.clients.producer.internals.DefaultPartitioner
// (2.3: per-topic round robin from ThreadLocalRandom.nextInt(); 2.4-3.x: KIP-480 sticky through
// StickyPartitionCache) or org.apache.kafka.clients.producer.UniformStickyPartitioner (2.4+) --
// as that release's KafkaProducer.doSend drives it, on tools/golden/nullkey_inputs.py's cases.
//
//   java --add-opens java.base/java.lang=ALL-UNNAMED -cp ... NullKeyDriver CLASS < inputs
//
// Kafka draws from ThreadLocalRandom, which cannot be seeded; so that the answers are
// reproducible, the driver sets the calling thread's ThreadLocalRandom state
// (Thread.threadLocalRandomSeed, after ThreadLocalRandom.current() has initialised the thread) to
// the case's "tlr_seed" before creating the partitioner. Each nextInt() is then, in JDK 17
// (17.0.15 made these files): seed += (thread id << 1) + 0x9e3779b97f4a7c15;
// z = (seed ^ seed >>> 33) * 0xff51afd7ed558ccd; (int) ((z ^ z >>> 33) * 0xc4ceb9fe1a85ec53 >>> 32).
// The first line printed, {"tlr_check": [4 values for seed 0], "thread_id", "java_version"},
// lets a port check its emulation.
// Per send [topic, cluster_index, new_batch, key hex or null]: partition(topic, key, keyBytes, ...)
// and, when the release's Partitioner has onNewBatch and new_batch is true, onNewBatch(topic,
// cluster, first) then partition(...) again (KafkaProducer 2.4-3.9, abortOnNewBatch = true with a
// partitioner). Writes {"id", "expected": [partition per send], "on_new_batch": bool}.
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ThreadLocalRandom;

public class NullKeyDriver {
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

    static byte[] hex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        return b;
    }

    static final Field SEED;
    static {
        try {
            SEED = Thread.class.getDeclaredField("threadLocalRandomSeed");
            SEED.setAccessible(true);
        } catch (NoSuchFieldException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    static void seed(long s) throws IllegalAccessException {
        ThreadLocalRandom.current(); // initialise this thread's probe, so current() keeps the seed
        SEED.setLong(Thread.currentThread(), s);
    }

    public static void main(String[] args) throws Exception {
        Class<?> cls = Class.forName(args[0]);
        Method onNewBatch = null;
        try {
            onNewBatch = Partitioner.class.getMethod("onNewBatch", String.class, Cluster.class, int.class);
        } catch (NoSuchMethodException absent) {
            // before 2.4 (KIP-480) and from 4.0 (KAFKA-18295)
        }
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        seed(0);
        JsonArray check = new JsonArray();
        for (int i = 0; i < 4; i++) check.add(ThreadLocalRandom.current().nextInt());
        JsonObject head = new JsonObject();
        head.add("tlr_check", check);
        head.addProperty("thread_id", Thread.currentThread().getId());
        head.addProperty("java_version", System.getProperty("java.version"));
        out.println(head);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            JsonObject c = JsonParser.parseString(line).getAsJsonObject();
            List<Cluster> clusters = new ArrayList<>();
            for (JsonElement s : c.getAsJsonArray("clusters")) clusters.add(cluster(s.getAsJsonObject()));
            seed(c.get("tlr_seed").getAsLong());
            Partitioner partitioner = (Partitioner) cls.getDeclaredConstructor().newInstance();
            partitioner.configure(Collections.emptyMap());
            JsonArray expected = new JsonArray();
            for (JsonElement e : c.getAsJsonArray("sends")) {
                JsonArray send = e.getAsJsonArray();
                String topic = send.get(0).getAsString();
                Cluster cluster = clusters.get(send.get(1).getAsInt());
                boolean newBatch = send.get(2).getAsBoolean();
                byte[] key = send.get(3).isJsonNull() ? null : hex(send.get(3).getAsString());
                int partition = partitioner.partition(topic, key, key, null, null, cluster);
                if (newBatch && onNewBatch != null) {
                    onNewBatch.invoke(partitioner, topic, cluster, partition);
                    partition = partitioner.partition(topic, key, key, null, null, cluster);
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
