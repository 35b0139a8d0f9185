// Times Kafka's own share-group assignor builders (SimpleHomogeneousAssignmentBuilder,
// SimpleHeterogeneousAssignmentBuilder, Kafka branch 4.3) on the shapes of
// benchmarks/bench_share_assignor.py, with no JMH: compiled by that script against Kafka's
// source (never copied into kpart). Args: MEMBERS PARTITIONS TOPICS TOPICS_PER_MEMBER(0: all)
// REPEATS. Prints "fresh_ms leave_ms" (medians), the shapes the Python side times.
import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.GroupSpec;
import org.apache.kafka.coordinator.group.api.assignor.MemberAssignment;
import org.apache.kafka.coordinator.group.api.assignor.MemberSubscription;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.SimpleHeterogeneousAssignmentBuilder;
import org.apache.kafka.coordinator.group.assignor.SimpleHomogeneousAssignmentBuilder;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

public class BenchShareAssignor {
    record Member(Set<Uuid> topics, Map<Uuid, Set<Integer>> assignment)
            implements MemberSubscription, MemberAssignment {
        public Optional<String> rackId() { return Optional.empty(); }
        public Optional<String> instanceId() { return Optional.empty(); }
        public Set<Uuid> subscribedTopicIds() { return topics; }
        public Map<Uuid, Set<Integer>> partitions() { return assignment; }
    }

    record Spec(Map<String, Member> members, SubscriptionType type) implements GroupSpec {
        public Collection<String> memberIds() { return members.keySet(); }
        public SubscriptionType subscriptionType() { return type; }
        public boolean isPartitionAssigned(Uuid t, int p) { return false; }
        public boolean isPartitionAssignable(Uuid t, int p) { return true; }
        public MemberSubscription memberSubscription(String m) { return members.get(m); }
        public MemberAssignment memberAssignment(String m) { return members.get(m); }
    }

    static GroupAssignment run(Spec spec, SubscribedTopicDescriber d) {
        return spec.type() == SubscriptionType.HOMOGENEOUS
            ? new SimpleHomogeneousAssignmentBuilder(spec, d).build()
            : new SimpleHeterogeneousAssignmentBuilder(spec, d).build();
    }

    static double median(double[] xs) { Arrays.sort(xs); return xs[xs.length / 2]; }

    public static void main(String[] args) {
        int members = Integer.parseInt(args[0]), partitions = Integer.parseInt(args[1]);
        int topics = Integer.parseInt(args[2]), perMember = Integer.parseInt(args[3]);
        int repeats = Integer.parseInt(args[4]);
        List<Uuid> ids = new ArrayList<>();
        Random rnd = new Random(932);
        for (int t = 0; t < topics; t++) ids.add(new Uuid(rnd.nextLong(), rnd.nextLong()));
        Map<Uuid, Integer> counts = new HashMap<>();
        for (Uuid id : ids) counts.put(id, partitions / topics);
        SubscribedTopicDescriber d = new SubscribedTopicDescriber() {
            public int numPartitions(Uuid t) { return counts.getOrDefault(t, -1); }
            public Set<String> racksForPartition(Uuid t, int p) { return Set.of(); }
        };
        SubscriptionType type = perMember == 0 ? SubscriptionType.HOMOGENEOUS : SubscriptionType.HETEROGENEOUS;
        Map<String, Set<Uuid>> subs = new HashMap<>();
        List<String> order = new ArrayList<>();
        for (int m = 0; m < members; m++) {
            List<Uuid> mine = new ArrayList<>(ids);
            if (perMember > 0) { Collections.shuffle(mine, new Random(m)); mine = mine.subList(0, perMember); }
            subs.put("consumer-" + m, new HashSet<>(mine));
            order.add("consumer-" + m);
        }
        double[] fresh = new double[repeats], leave = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            Map<String, Member> specs = new HashMap<>();
            for (String m : order) specs.put(m, new Member(subs.get(m), Map.of()));
            long t0 = System.nanoTime();
            GroupAssignment a = run(new Spec(Collections.unmodifiableMap(specs), type), d);
            fresh[r] = (System.nanoTime() - t0) / 1e6;
            Map<String, Member> after = new HashMap<>();
            for (int i = 0; i < order.size(); i++) {
                if (i % 100 == 0) continue;  // 1 % of the members leave
                String m = order.get(i);
                MemberAssignment ma = a.members().get(m);
                after.put(m, new Member(subs.get(m), ma == null ? Map.of() : ma.partitions()));
            }
            t0 = System.nanoTime();
            run(new Spec(Collections.unmodifiableMap(after), type), d);
            leave[r] = (System.nanoTime() - t0) / 1e6;
        }
        System.out.printf("%.3f %.3f%n", median(fresh), median(leave));
    }
}
