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

import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.placement.ClusterDescriber;
import org.apache.kafka.metadata.placement.PartitionAssignment;
import org.apache.kafka.metadata.placement.PlacementSpec;
import org.apache.kafka.metadata.placement.StripedReplicaPlacer;
import org.apache.kafka.metadata.placement.TopicAssignment;
import org.apache.kafka.metadata.placement.UsableBroker;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.Random;

public class StripedDriver {
    static final class Brokers implements ClusterDescriber {
        final List<UsableBroker> brokers;
        Brokers(List<UsableBroker> brokers) { this.brokers = brokers; }
        public Iterator<UsableBroker> usableBrokers() { return brokers.iterator(); }
        public Uuid defaultDir(int brokerId) { return Uuid.ZERO_UUID; }
    }

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
            Brokers cluster = new Brokers(brokers);
            StripedReplicaPlacer placer = new StripedReplicaPlacer(new Random(input.get("seed").getAsLong()));
            JsonArray results = new JsonArray();
            for (JsonElement e : input.getAsJsonArray("placements")) {
                JsonObject p = e.getAsJsonObject();
                JsonObject r = new JsonObject();
                try {
                    TopicAssignment t = placer.place(new PlacementSpec(p.get("start_partition").getAsInt(),
                            p.get("partitions").getAsInt(), (short) p.get("replication_factor").getAsInt()), cluster);
                    JsonArray a = new JsonArray();
                    for (PartitionAssignment pa : t.assignments()) {
                        JsonArray reps = new JsonArray();
                        for (int id : pa.replicas()) reps.add(id);
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
