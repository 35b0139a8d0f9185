// kpart's own driver (no Kafka code): runs a classic consumer-side assignor of a Kafka release
// (org.apache.kafka.clients.consumer.{Range,RoundRobin,Sticky,CooperativeSticky}Assignor) the way
// the group leader runs it, assign(Cluster, GroupSubscription), on the "single" cases of
// tests/golden/assign_*.jsonl (stdin, one case a line). Writes {"id", "expected"} per single case
// (sequence cases are skipped). Works on the 2.4 ... 4.x client APIs (reflection picks the richest
// Subscription constructor the release has). See tools/golden/README.md.
import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Assignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupAssignment;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.GroupSubscription;
import org.apache.kafka.clients.consumer.ConsumerPartitionAssignor.Subscription;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.consumer.RangeAssignor;
import org.apache.kafka.clients.consumer.RoundRobinAssignor;
import org.apache.kafka.clients.consumer.StickyAssignor;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

public class ClassicDriver {
    static ConsumerPartitionAssignor assignor(String name) {
        switch (name) {
            case "range": return new RangeAssignor();
            case "roundrobin": return new RoundRobinAssignor();
            case "sticky": return new StickyAssignor();
            case "cooperative-sticky": return new CooperativeStickyAssignor();
            default: throw new IllegalArgumentException(name);
        }
    }

    static Cluster cluster(JsonObject input) {
        Map<String, Node> nodes = new HashMap<>();
        List<PartitionInfo> parts = new ArrayList<>();
        JsonObject racks = input.has("partition_racks") ? input.getAsJsonObject("partition_racks") : null;
        for (Map.Entry<String, JsonElement> t : input.getAsJsonObject("topics").entrySet()) {
            int n = t.getValue().getAsInt();
            JsonArray tr = racks != null && racks.has(t.getKey()) ? racks.getAsJsonArray(t.getKey()) : null;
            for (int p = 0; p < n; p++) {
                List<Node> replicas = new ArrayList<>();
                if (tr != null && p < tr.size()) {
                    int i = 0;
                    for (JsonElement r : tr.get(p).getAsJsonArray()) {
                        String rack = r.isJsonNull() ? null : r.getAsString();
                        String key = rack + "#" + i++;
                        Node node = nodes.computeIfAbsent(key, k -> new Node(nodes.size(), "h" + nodes.size(), 9092, rack));
                        replicas.add(node);
                    }
                }
                Node[] arr = replicas.toArray(new Node[0]);
                parts.add(new PartitionInfo(t.getKey(), p, arr.length > 0 ? arr[0] : null, arr, arr));
            }
        }
        return new Cluster("kpart", new ArrayList<>(nodes.values()), parts, Collections.emptySet(), Collections.emptySet());
    }

    static Subscription subscription(JsonObject m) throws Exception {
        List<String> topics = new ArrayList<>();
        for (JsonElement t : m.getAsJsonArray("topics")) topics.add(t.getAsString());
        ByteBuffer userData = null;
        if (m.has("user_data_hex") && !m.get("user_data_hex").isJsonNull()) {
            String hex = m.get("user_data_hex").getAsString();
            byte[] b = new byte[hex.length() / 2];
            for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
            userData = ByteBuffer.wrap(b);
        }
        List<TopicPartition> owned = new ArrayList<>();
        for (JsonElement e : m.getAsJsonArray("owned")) {
            JsonArray pair = e.getAsJsonArray();
            for (JsonElement p : pair.get(1).getAsJsonArray()) owned.add(new TopicPartition(pair.get(0).getAsString(), p.getAsInt()));
        }
        int generation = m.get("generation").getAsInt();
        Optional<String> rack = m.get("rack").isJsonNull() ? Optional.empty() : Optional.of(m.get("rack").getAsString());
        Subscription s;
        try {
            Constructor<Subscription> c = Subscription.class.getConstructor(List.class, ByteBuffer.class, List.class, int.class, Optional.class);
            s = c.newInstance(topics, userData, owned, generation, rack);
        } catch (NoSuchMethodException e5) {
            try {
                Constructor<Subscription> c = Subscription.class.getConstructor(List.class, ByteBuffer.class, List.class, int.class);
                s = c.newInstance(topics, userData, owned, generation);
            } catch (NoSuchMethodException e4) {
                s = new Subscription(topics, userData, owned);
            }
        }
        s.setGroupInstanceId(m.get("instance_id").isJsonNull() ? Optional.empty() : Optional.of(m.get("instance_id").getAsString()));
        return s;
    }

    static JsonObject error(Throwable t) {
        if (t instanceof InvocationTargetException) t = t.getCause();
        JsonObject err = new JsonObject();
        JsonObject e = new JsonObject();
        e.addProperty("class", t.getClass().getName());
        e.addProperty("message", t.getMessage());
        err.add("error", e);
        return err;
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        Gson gson = new Gson();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            JsonObject c = JsonParser.parseString(line).getAsJsonObject();
            if (!c.get("kind").getAsString().equals("single")) continue;
            JsonObject res = new JsonObject();
            res.addProperty("id", c.get("id").getAsString());
            JsonObject input = c.getAsJsonObject("input");
            List<String> ids = new ArrayList<>();
            try {
                Map<String, Subscription> subs = new HashMap<>();
                for (JsonElement e : input.getAsJsonArray("members")) {
                    JsonObject m = e.getAsJsonObject();
                    ids.add(m.get("id").getAsString());
                    subs.put(m.get("id").getAsString(), subscription(m));
                }
                GroupAssignment ga = assignor(c.get("assignor").getAsString()).assign(cluster(input), new GroupSubscription(subs));
                JsonObject asg = new JsonObject();
                for (String id : ids) {
                    Assignment a = ga.groupAssignment().get(id);
                    TreeMap<String, List<Integer>> sorted = new TreeMap<>();  // duplicates kept, as Kafka returns them
                    if (a != null) for (TopicPartition tp : a.partitions())
                        sorted.computeIfAbsent(tp.topic(), k -> new ArrayList<>()).add(tp.partition());
                    JsonObject mo = new JsonObject();
                    for (Map.Entry<String, List<Integer>> te : sorted.entrySet()) {
                        Collections.sort(te.getValue());
                        JsonArray ps = new JsonArray();
                        for (int p : te.getValue()) ps.add(p);
                        mo.add(te.getKey(), ps);
                    }
                    asg.add(id, mo);
                }
                JsonObject exp = new JsonObject();
                exp.add("assignment", asg);
                res.add("expected", exp);
            } catch (Exception ex) {
                res.add("expected", error(ex));
            }
            out.println(gson.toJson(res));
        }
        out.flush();
    }
}
