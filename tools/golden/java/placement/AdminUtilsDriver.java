// kpart's own driver (no Kafka code): runs a Kafka release's
// org.apache.kafka.admin.AdminUtils.assignReplicasToBrokers (server-common, 3.6 ... 4.0) on
// stdin cases, one JSON line each, in one of two modes (argument):
//   place: the cases of tests/golden/replicas_adminutils.jsonl.gz;
//          assignReplicasToBrokers(brokers in listed order, partitions, rf, fixed_start_index,
//          start_partition_id) as given.
//   add:   the cases of tools/golden/placement_inputs.py (adding partitions in ZooKeeper mode):
//          {"brokers" (sorted by id, as AdminZkClient lists them), "existing_partitions",
//           "partition0" (partition 0's replicas), "new_total"}; called as
//          AdminZkClient.createNewPartitionsAssignment calls it when no assignment is given:
//          assignReplicasToBrokers(brokers, new_total - existing_partitions, partition0.size,
//          startIndex, existing_partitions) with startIndex = max(0, index of the first broker
//          whose id >= partition0[0]) -- that one line is AdminZkClient.scala's (Scala; not
//          compiled here), transcribed.
// Writes {"id", "expected": {"assignment": {"<partition>": [broker, ...]}} |
// {"error": {"class", "message"}}}. See tools/golden/README.md.
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.apache.kafka.admin.AdminUtils;
import org.apache.kafka.admin.BrokerMetadata;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

public class AdminUtilsDriver {
    public static void main(String[] args) throws Exception {
        boolean add = args.length > 0 && args[0].equals("add");
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            JsonObject c = JsonParser.parseString(line).getAsJsonObject();
            JsonObject input = c.getAsJsonObject("input");
            List<BrokerMetadata> brokers = new ArrayList<>();
            for (JsonElement e : input.getAsJsonArray("brokers")) {
                JsonObject b = e.getAsJsonObject();
                Optional<String> rack = b.get("rack").isJsonNull() ? Optional.empty()
                        : Optional.of(b.get("rack").getAsString());
                brokers.add(new BrokerMetadata(b.get("id").getAsInt(), rack));
            }
            JsonObject expected = new JsonObject();
            try {
                Map<Integer, List<Integer>> got;
                if (add) {
                    JsonArray p0 = input.getAsJsonArray("partition0");
                    int existing = input.get("existing_partitions").getAsInt();
                    int first = p0.get(0).getAsInt();
                    int startIndex = -1;
                    for (int i = 0; i < brokers.size(); i++) {
                        if (brokers.get(i).id >= first) { startIndex = i; break; }
                    }
                    startIndex = Math.max(0, startIndex);
                    got = AdminUtils.assignReplicasToBrokers(brokers, input.get("new_total").getAsInt() - existing,
                            p0.size(), startIndex, existing);
                } else {
                    got = AdminUtils.assignReplicasToBrokers(brokers, input.get("partitions").getAsInt(),
                            input.get("replication_factor").getAsInt(), input.get("fixed_start_index").getAsInt(),
                            input.get("start_partition_id").getAsInt());
                }
                JsonObject a = new JsonObject();
                for (Map.Entry<Integer, List<Integer>> e : new TreeMap<>(got).entrySet()) {
                    JsonArray reps = new JsonArray();
                    for (int id : e.getValue()) reps.add(id);
                    a.add(String.valueOf(e.getKey()), reps);
                }
                expected.add("assignment", a);
            } catch (RuntimeException ex) {
                JsonObject err = new JsonObject();
                err.addProperty("class", ex.getClass().getName());
                err.addProperty("message", ex.getMessage());
                expected.add("error", err);
            }
            JsonObject o = new JsonObject();
            o.addProperty("id", c.get("id").getAsString());
            o.add("expected", expected);
            out.println(o);
        }
        out.flush();
    }
}
