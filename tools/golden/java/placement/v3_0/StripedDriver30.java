// 3.0-3.2 variant of StripedDriver.java (same cases, same output): the placer was
// org.apache.kafka.controller.StripedReplicaPlacer with
// place(startPartition, numPartitions, replicationFactor, Iterator<UsableBroker>) returning
// List<List<Integer>>, and UsableBroker was org.apache.kafka.metadata.UsableBroker (KAFKA-13807
// and KAFKA-14386 moved and reshaped them in 3.3/3.4). Everything else as below.
// kpart's own driver (no Kafka code): runs a Kafka release's KRaft controller placer,
// org.apache.kafka.metadata.placement.StripedReplicaPlacer (3.0+), on the cases of
// tests/golden/replicas_striped.jsonl.gz (stdin, one a line): one `new StripedReplicaPlacer(new
// java.util.Random(seed))` per case, used for the case's placements in order, each
// place(new PlacementSpec(start, partitions, (short) rf), cluster) where cluster.usableBrokers()
// iterates the listed brokers (UsableBroker(id, Optional.ofNullable(rack), fenced)). Writes
// {"id", "expected": {"results": [{"assignment": [[broker, ...] per partition]} |
// {"error": {"class", "message"}}]}}. Compiles against 3.6 (ClusterDescriber.usableBrokers only)
// and 4.x (ClusterDescriber also extends DefaultDirProvider: defaultDir is implemented without
// @Override). See tools/golden/README.md.
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.apache.kafka.controller.StripedReplicaPlacer;
import org.apache.kafka.metadata.UsableBroker;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

public class StripedDriver30 {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, "UTF-8");
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            JsonObject c = JsonParser.parseString(line).getAsJsonObject();
            JsonObject input = c.getAsJsonObject("input");
            List<UsableBroker> brokers = new ArrayList<>();
            for (JsonElement e : input.getAsJsonArray("brokers")) {
                JsonObject b = e.getAsJsonObject();
                Optional<String> rack = b.get("rack").isJsonNull() ? Optional.empty()
                        : Optional.of(b.get("rack").getAsString());
                brokers.add(new UsableBroker(b.get("id").getAsInt(), rack, b.get("fenced").getAsBoolean()));
            }
            StripedReplicaPlacer placer = new StripedReplicaPlacer(new Random(input.get("seed").getAsLong()));
            JsonArray results = new JsonArray();
            for (JsonElement e : input.getAsJsonArray("placements")) {
                JsonObject p = e.getAsJsonObject();
                JsonObject r = new JsonObject();
                try {
                    List<List<Integer>> t = placer.place(p.get("start_partition").getAsInt(),
                            p.get("partitions").getAsInt(), (short) p.get("replication_factor").getAsInt(),
                            brokers.iterator());
                    JsonArray a = new JsonArray();
                    for (List<Integer> pa : t) {
                        JsonArray reps = new JsonArray();
                        for (int id : pa) reps.add(id);
                        a.add(reps);
                    }
                    r.add("assignment", a);
                } catch (RuntimeException ex) {
                    JsonObject err = new JsonObject();
                    err.addProperty("class", ex.getClass().getName());
                    err.addProperty("message", ex.getMessage());
                    r.add("error", err);
                }
                results.add(r);
            }
            JsonObject expected = new JsonObject();
            expected.add("results", results);
            JsonObject o = new JsonObject();
            o.addProperty("id", c.get("id").getAsString());
            o.add("expected", expected);
            out.println(o);
        }
        out.flush();
    }
}
