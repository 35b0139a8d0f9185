// Runs Kafka's own share-group builders (SimpleHomogeneousAssignmentBuilder /
// SimpleHeterogeneousAssignmentBuilder, compiled from a Kafka checkout by
// tests/consumer/test_share_kafka_differential.py; no Kafka code is kept in kpart) on groups
// read from stdin, the way TargetAssignmentBuilder feeds them: members put into a HashMap in
// order, each member's subscribed ids iterating as its HashSet<String> of names (new
// HashSet<>(list)) does, its current assignment iterating in the given order.
//   case | topic NAME MSB LSB PARTITIONS ASSIGNABLE(csv or -) | member ID TOPICS(csv of topic
//   indices or -) ASSIGNMENT(tidx:p.p;tidx:p or -) | end
// Argument: "4.3" (the builders) or "4.1" / "4.0" (that branch's SimpleAssignor.assign), loaded
// by reflection so that one driver compiles against either branch. One line per case: {member={topicIndex=[partitions]}} sorted, or ERROR and the
// class of the exception Kafka throws.
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberSubscription;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import java.io.*;
import java.util.*;

public class KafkaShareAssignorDiff {
    record Member(Set<Uuid> topics, Map<Uuid, Set<Integer>> assignment) implements MemberSubscription, MemberAssignment {
        public Optional<String> rackId() { return Optional.empty(); }
        public Optional<String> instanceId() { return Optional.empty(); }
        public Set<Uuid> subscribedTopicIds() { return topics; }
        public Map<Uuid, Set<Integer>> partitions() { return assignment; }
    }
    record Spec(Map<String, Member> members, SubscriptionType type, Map<Uuid, Set<Integer>> ok) implements GroupSpec {
        public Collection<String> memberIds() { return members.keySet(); }
        public SubscriptionType subscriptionType() { return type; }
        public boolean isPartitionAssigned(Uuid t, int p) { return false; }
        public boolean isPartitionAssignable(Uuid t, int p) { return ok.containsKey(t) && ok.get(t).contains(p); }
        public MemberSubscription memberSubscription(String m) { return members.get(m); }
        public MemberAssignment memberAssignment(String m) { return members.get(m); }
    }
    static GroupAssignment run(String version, boolean hom, GroupSpec spec, SubscribedTopicDescriber d) throws Exception {
        String pkg = "org.apache.kafka.coordinator.group.assignor.";
        if (!version.equals("4.3")) {  // 4.0, 4.1: SimpleAssignor.assign
            Object assignor = Class.forName(pkg + "SimpleAssignor").getConstructor().newInstance();
            return (GroupAssignment) assignor.getClass().getMethod("assign", GroupSpec.class, SubscribedTopicDescriber.class).invoke(assignor, spec, d);
        }
        Class<?> builder = Class.forName(pkg + (hom ? "SimpleHomogeneousAssignmentBuilder" : "SimpleHeterogeneousAssignmentBuilder"));
        Object b = builder.getConstructor(GroupSpec.class, SubscribedTopicDescriber.class).newInstance(spec, d);
        return (GroupAssignment) builder.getMethod("build").invoke(b);
    }

    public static void main(String[] a) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        String line;
        List<Uuid> ids = null; List<String> names = null; Map<Uuid,Integer> counts = null; Map<Uuid, Set<Integer>> ok = null;
        Map<String, Member> members = null; List<Set<String>> nameSets = null;
        while ((line = in.readLine()) != null) {
            String[] p = line.split(" ");
            switch (p[0]) {
                case "case": ids = new ArrayList<>(); names = new ArrayList<>(); counts = new HashMap<>(); ok = new HashMap<>(); members = new HashMap<>(); nameSets = new ArrayList<>(); break;
                case "topic": {
                    Uuid u = new Uuid(Long.parseLong(p[2]), Long.parseLong(p[3]));
                    ids.add(u); names.add(p[1]); counts.put(u, Integer.parseInt(p[4]));
                    if (!p[5].equals("-")) { Set<Integer> s = new HashSet<>(); for (String x : p[5].split(",")) s.add(Integer.parseInt(x)); ok.put(u, s); }
                    break;
                }
                case "member": {
                    List<String> subList = new ArrayList<>();
                    if (!p[2].equals("-")) for (String x : p[2].split(",")) subList.add(names.get(Integer.parseInt(x)));
                    Set<String> nameSet = new HashSet<>(subList);
                    nameSets.add(nameSet);
                    Set<Uuid> tids = new LinkedHashSet<>();
                    for (String n : nameSet) tids.add(ids.get(names.indexOf(n)));
                    Map<Uuid, Set<Integer>> asg = new LinkedHashMap<>();
                    if (!p[3].equals("-")) for (String e : p[3].split(";")) {
                        String[] kv = e.split(":");
                        Set<Integer> ps = new LinkedHashSet<>();
                        if (kv.length > 1) for (String x : kv[1].split("\\.")) ps.add(Integer.parseInt(x));
                        asg.put(ids.get(Integer.parseInt(kv[0])), ps);
                    }
                    members.put(p[1], new Member(Collections.unmodifiableSet(tids), asg));
                    break;
                }
                case "end": {
                    boolean hom = true; for (Set<String> s : nameSets) if (!s.equals(nameSets.get(0))) hom = false;
                    final Map<Uuid,Integer> c = counts;
                    SubscribedTopicDescriber d = new SubscribedTopicDescriber() {
                        public int numPartitions(Uuid t) { return c.getOrDefault(t, -1); }
                        public Set<String> racksForPartition(Uuid t, int q) { return Set.of(); }
                    };
                    Spec spec = new Spec(Collections.unmodifiableMap(members), hom ? SubscriptionType.HOMOGENEOUS : SubscriptionType.HETEROGENEOUS, ok);
                    try {
                        GroupAssignment g = run(a[0], hom, spec, d);
                        TreeMap<String, String> res = new TreeMap<>();
                        for (String m : members.keySet()) {
                            MemberAssignment ma = g.members().get(m);
                            TreeMap<Integer, TreeSet<Integer>> sorted = new TreeMap<>();
                            if (ma != null) for (Map.Entry<Uuid, Set<Integer>> e : ma.partitions().entrySet()) if (!e.getValue().isEmpty()) sorted.put(ids.indexOf(e.getKey()), new TreeSet<>(e.getValue()));
                            res.put(m, sorted.toString());
                        }
                        out.append(res).append('\n');
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        out.append("ERROR ").append(e.getCause().getClass().getName()).append('\n');
                    }
                    break;
                }
            }
        }
        System.out.print(out);
    }
}
