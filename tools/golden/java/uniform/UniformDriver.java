// kpart's own driver (no Kafka code): runs the group coordinator's KIP-848 UniformAssignor of a
// Kafka release on the inputs of tests/golden/uniform_assignor.jsonl (read from stdin, one case a
// line) and writes one JSON line per case: {"id", "expected"} for single cases,
// {"id", "rounds": [{"step", "subscription_type", "members", "assignment"|"error"}]} for sequences.
// Compiled together with the Kafka sources it names; see tools/golden/README.md.
import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

public class UniformDriver {
    /** Topic metadata of one step: name to id, id to name, id to partition count. */
    static final class Topics implements SubscribedTopicDescriber {
        final Map<String, Uuid> ids = new HashMap<>();
        final Map<Uuid, String> names = new HashMap<>();
        final Map<Uuid, Integer> counts = new HashMap<>();

        Topics(JsonArray topics) {
            for (JsonElement e : topics) {
                JsonObject t = e.getAsJsonObject();
                Uuid id = Uuid.fromString(t.get("id").getAsString());
                ids.put(t.get("name").getAsString(), id);
                names.put(id, t.get("name").getAsString());
                counts.put(id, t.get("partitions").getAsInt());
            }
        }

        @Override
        public int numPartitions(Uuid topicId) {
            return counts.getOrDefault(topicId, -1);
        }

        @Override
        public Set<String> racksForPartition(Uuid topicId, int partition) {
            return Set.of();
        }

        Uuid id(String topic) {
            if (topic.startsWith("id:")) return Uuid.fromString(topic.substring(3));
            return ids.get(topic);
        }

        String name(Uuid id) {
            String n = names.get(id);
            return n != null ? n : "id:" + id;
        }
    }

    /** As the coordinator's TopicIds: a view of the subscribed names set, skipping unknown topics. */
    static final class TopicIdsView extends AbstractSet<Uuid> {
        final Set<String> topicNames;
        final Topics topics;

        TopicIdsView(Set<String> topicNames, Topics topics) {
            this.topicNames = topicNames;
            this.topics = topics;
        }

        @Override
        public boolean contains(Object o) {
            if (!(o instanceof Uuid)) return false;
            String n = topics.names.get(o);
            return n != null && topicNames.contains(n);
        }

        @Override
        public int size() {
            return topicNames.size();  // as TopicIds: names missing from the metadata count
        }

        @Override
        public boolean isEmpty() {
            return topicNames.isEmpty();
        }

        @Override
        public Iterator<Uuid> iterator() {
            List<Uuid> out = new ArrayList<>();
            for (String t : topicNames) {
                Uuid id = topics.ids.get(t);
                if (id != null) out.add(id);
            }
            return out.iterator();
        }
    }

    static final boolean HASHSET_IDS = Boolean.getBoolean("kpart.hashSetIds");

    static Set<Uuid> subscribedIds(Set<String> names, Topics topics) {
        Set<Uuid> view = new TopicIdsView(names, topics);
        return HASHSET_IDS ? new HashSet<>(view) : view;
    }

    static Assignment recordedAssignment(JsonArray assignment, Topics topics) {
        // the recorded iteration order is reproduced with insertion-ordered collections
        Map<Uuid, Set<Integer>> m = new LinkedHashMap<>();
        for (JsonElement e : assignment) {
            JsonArray pair = e.getAsJsonArray();
            Set<Integer> ps = new LinkedHashSet<>();
            for (JsonElement p : pair.get(1).getAsJsonArray()) ps.add(p.getAsInt());
            m.put(topics.id(pair.get(0).getAsString()), ps);
        }
        return new Assignment(m);
    }

    /** Assignment.fromRecord of a record listing `partitions` in Java iteration order. */
    static Assignment viaRecord(Map<Uuid, Set<Integer>> partitions) {
        Map<Uuid, Set<Integer>> m = new ArrayList<>(partitions.entrySet()).stream().collect(
            Collectors.toMap(Map.Entry::getKey, e -> new HashSet<>(new ArrayList<>(e.getValue()))));
        return new Assignment(m);
    }

    static Set<String> subscribedNames(JsonObject member) {
        List<String> l = new ArrayList<>();
        for (JsonElement t : member.get("topics").getAsJsonArray()) l.add(t.getAsString());
        return new HashSet<>(l);
    }

    static SubscriptionType subscriptionType(List<Set<String>> subs) {
        for (Set<String> s : subs) if (!s.equals(subs.get(0))) return SubscriptionType.HETEROGENEOUS;
        return SubscriptionType.HOMOGENEOUS;
    }

    static JsonObject error(Throwable t) {
        JsonObject err = new JsonObject();
        JsonObject e = new JsonObject();
        e.addProperty("class", t.getClass().getName());
        e.addProperty("message", t.getMessage());
        err.add("error", e);
        return err;
    }

    static JsonObject render(GroupAssignment ga, List<String> memberOrder, Topics topics) {
        JsonObject out = new JsonObject();
        for (String mid : memberOrder) {
            MemberAssignment ma = ga.members().get(mid);
            TreeMap<String, TreeSet<Integer>> sorted = new TreeMap<>();
            if (ma != null) {
                for (Map.Entry<Uuid, Set<Integer>> e : ma.partitions().entrySet()) {
                    if (e.getValue().isEmpty()) continue;
                    sorted.put(topics.name(e.getKey()), new TreeSet<>(e.getValue()));
                }
            }
            JsonObject m = new JsonObject();
            for (Map.Entry<String, TreeSet<Integer>> e : sorted.entrySet()) {
                JsonArray ps = new JsonArray();
                for (int p : e.getValue()) ps.add(p);
                m.add(e.getKey(), ps);
            }
            out.add(mid, m);
        }
        return out;
    }

    /** One target-assignment computation. Returns the assignor's result or throws. */
    static GroupAssignment run(List<String> ids, List<Set<String>> subs, List<JsonObject> members,
                               List<Assignment> current, Topics topics, SubscriptionType type) {
        Map<String, MemberSubscriptionAndAssignmentImpl> specs = new HashMap<>();
        Map<Uuid, Map<Integer, String>> inverted = new HashMap<>();
        for (int i = 0; i < ids.size(); i++) {
            JsonObject m = members.get(i);
            Optional<String> rack = m.get("rack").isJsonNull() ? Optional.empty() : Optional.of(m.get("rack").getAsString());
            Optional<String> inst = m.get("instance_id").isJsonNull() ? Optional.empty() : Optional.of(m.get("instance_id").getAsString());
            specs.put(ids.get(i), new MemberSubscriptionAndAssignmentImpl(rack, inst,
                subscribedIds(subs.get(i), topics), current.get(i)));
            for (Map.Entry<Uuid, Set<Integer>> e : current.get(i).partitions().entrySet())
                for (int p : e.getValue())
                    inverted.computeIfAbsent(e.getKey(), k -> new HashMap<>()).put(p, ids.get(i));
        }
        return new UniformAssignor().assign(
            new GroupSpecImpl(Collections.unmodifiableMap(specs), type, inverted), topics);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        Gson gson = new Gson();
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isBlank()) continue;
            JsonObject c = JsonParser.parseString(line).getAsJsonObject();
            JsonObject res = new JsonObject();
            res.addProperty("id", c.get("id").getAsString());
            JsonObject input = c.getAsJsonObject("input");
            if (c.get("kind").getAsString().equals("single")) {
                Topics topics = new Topics(input.getAsJsonArray("topics"));
                List<String> ids = new ArrayList<>();
                List<Set<String>> subs = new ArrayList<>();
                List<JsonObject> members = new ArrayList<>();
                List<Assignment> current = new ArrayList<>();
                for (JsonElement e : input.getAsJsonArray("members")) {
                    JsonObject m = e.getAsJsonObject();
                    ids.add(m.get("id").getAsString());
                    subs.add(subscribedNames(m));
                    members.add(m);
                    current.add(recordedAssignment(m.getAsJsonArray("assignment"), topics));
                }
                SubscriptionType type = subscriptionType(subs);
                res.addProperty("subscription_type", type.name());
                try {
                    JsonObject exp = new JsonObject();
                    exp.add("assignment", render(run(ids, subs, members, current, topics, type), ids, topics));
                    res.add("expected", exp);
                } catch (Exception ex) {
                    res.add("expected", error(ex));
                }
            } else {
                Map<String, Assignment> target = new HashMap<>();
                JsonArray rounds = new JsonArray();
                int step = 0;
                for (JsonElement se : input.getAsJsonArray("steps")) {
                    JsonObject s = se.getAsJsonObject();
                    Topics topics = new Topics(s.getAsJsonArray("topics"));
                    List<String> ids = new ArrayList<>();
                    List<Set<String>> subs = new ArrayList<>();
                    List<JsonObject> members = new ArrayList<>();
                    List<Assignment> current = new ArrayList<>();
                    JsonArray roundMembers = new JsonArray();
                    Map<String, Assignment> kept = new HashMap<>();
                    for (JsonElement e : s.getAsJsonArray("members")) {
                        JsonObject m = e.getAsJsonObject();
                        String id = m.get("id").getAsString();
                        ids.add(id);
                        subs.add(subscribedNames(m));
                        members.add(m);
                        Assignment a = target.getOrDefault(id, Assignment.EMPTY);
                        current.add(a);
                        kept.put(id, a);
                        JsonObject rm = m.deepCopy();
                        JsonArray asg = new JsonArray();
                        for (Map.Entry<Uuid, Set<Integer>> te : a.partitions().entrySet()) {
                            JsonArray pair = new JsonArray();
                            pair.add(topics.name(te.getKey()));
                            JsonArray ps = new JsonArray();
                            for (int p : te.getValue()) ps.add(p);
                            pair.add(ps);
                            asg.add(pair);
                        }
                        rm.add("assignment", asg);
                        roundMembers.add(rm);
                    }
                    SubscriptionType type = subscriptionType(subs);
                    JsonObject round = new JsonObject();
                    round.addProperty("step", step++);
                    round.addProperty("subscription_type", type.name());
                    round.add("members", roundMembers);
                    Map<String, Assignment> next = new HashMap<>();
                    try {
                        GroupAssignment ga = run(ids, subs, members, current, topics, type);
                        round.add("assignment", render(ga, ids, topics));
                        for (String id : ids) {
                            MemberAssignment ma = ga.members().get(id);
                            Map<Uuid, Set<Integer>> np = ma == null ? Map.of() : ma.partitions();
                            Assignment old = kept.get(id);
                            next.put(id, old.partitions().equals(np) && target.containsKey(id) ? old : viaRecord(np));
                        }
                    } catch (Exception ex) {
                        round.add("error", error(ex).get("error"));
                        for (String id : ids) if (target.containsKey(id)) next.put(id, target.get(id));
                    }
                    target = next;
                    rounds.add(round);
                }
                res.add("rounds", rounds);
            }
            out.println(gson.toJson(res));
        }
        out.flush();
    }
}
