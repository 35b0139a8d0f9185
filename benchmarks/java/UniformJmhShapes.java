// Times the group coordinator's KIP-848 UniformAssignor on the shapes of Kafka's
// ServerSideAssignorBenchmark (jmh-benchmarks, assignor package), without JMH: FULL assignment,
// no racks, members "member<i>", topics "topic-<i>" of (members * ratio / topics) partitions,
// homogeneous (every member subscribes to every topic) or heterogeneous (5 buckets of members,
// bucket b subscribing to bucket b's topics, as createHeterogeneousBucketedMembers).
// Our code, no Kafka code: compiled against a Kafka release's sources (not committed), with
// tools/golden/java/uniform/Assignment.java first on the source path; see
// benchmarks/bench_uniform_jmh.py. Output: one JSON line per shape.
//
//   java -cp CP UniformJmhShapes MEMBERS RATIO TOPICS HOMOGENEOUS|HETEROGENEOUS [SECONDS]

import org.apache.kafka.common.Uuid;
import org.apache.kafka.coordinator.group.api.assignor.GroupAssignment;
import org.apache.kafka.coordinator.group.api.assignor.SubscribedTopicDescriber;
import org.apache.kafka.coordinator.group.api.assignor.SubscriptionType;
import org.apache.kafka.coordinator.group.assignor.UniformAssignor;
import org.apache.kafka.coordinator.group.modern.Assignment;
import org.apache.kafka.coordinator.group.modern.GroupSpecImpl;
import org.apache.kafka.coordinator.group.modern.MemberSubscriptionAndAssignmentImpl;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;

public class UniformJmhShapes {

    static final int BUCKETS = 5;  // ServerSideAssignorBenchmark.MAX_BUCKET_COUNT

    public static void main(String[] args) {
        int members = Integer.parseInt(args[0]);
        int ratio = Integer.parseInt(args[1]);
        int topicCount = Integer.parseInt(args[2]);
        SubscriptionType type = SubscriptionType.valueOf(args[3]);
        double seconds = args.length > 4 ? Double.parseDouble(args[4]) : 1.0;

        int perTopic = members * ratio / topicCount;
        Random random = new Random(42);
        List<Uuid> ids = new ArrayList<>();
        Map<Uuid, Integer> counts = new HashMap<>();
        for (int i = 0; i < topicCount; i++) {
            Uuid id = new Uuid(random.nextLong(), random.nextLong());
            ids.add(id);
            counts.put(id, perTopic);
        }
        SubscribedTopicDescriber describer = new SubscribedTopicDescriber() {
            @Override
            public int numPartitions(Uuid topicId) {
                return counts.getOrDefault(topicId, -1);
            }

            @Override
            public Set<String> racksForPartition(Uuid topicId, int partition) {
                return Set.of();
            }
        };

        Map<String, MemberSubscriptionAndAssignmentImpl> specs = new HashMap<>();
        int buckets = Math.min(BUCKETS, members);
        int topicsPerBucket = (topicCount + buckets - 1) / buckets;
        int membersPerBucket = (members + buckets - 1) / buckets;
        for (int i = 0; i < members; i++) {
            Set<Uuid> subscribed;
            if (type == SubscriptionType.HOMOGENEOUS) {
                subscribed = new HashSet<>(ids);
            } else {
                int b = i / membersPerBucket;
                subscribed = new HashSet<>(ids.subList(Math.min(b * topicsPerBucket, topicCount),
                    Math.min((b + 1) * topicsPerBucket, topicCount)));
            }
            specs.put("member" + i, new MemberSubscriptionAndAssignmentImpl(
                Optional.empty(), Optional.empty(), subscribed, Assignment.EMPTY));
        }
        GroupSpecImpl spec = new GroupSpecImpl(specs, type, Map.of());
        UniformAssignor assignor = new UniformAssignor();

        // Warm-up as JMH's 5 iterations, then 5 measured iterations of `seconds` each: the
        // average ms per assign() of each, as JMH's AverageTime mode.
        double[] scores = new double[5];
        for (int round = 0; round < 10; round++) {
            long start = System.nanoTime();
            long end = start + (long) (seconds * 1e9);
            int ops = 0;
            long now;
            int assigned = 0;
            do {
                GroupAssignment result = assignor.assign(spec, describer);
                assigned += result.members().size();
                ops++;
                now = System.nanoTime();
            } while (now < end);
            if (round >= 5) {
                scores[round - 5] = (now - start) / 1e6 / ops;
            }
            if (assigned == 0) {
                throw new IllegalStateException("nothing assigned");
            }
        }
        double[] sorted = scores.clone();
        Arrays.sort(sorted);
        double mean = Arrays.stream(scores).average().orElse(Double.NaN);
        System.out.printf("{\"members\": %d, \"ratio\": %d, \"topics\": %d, \"type\": \"%s\", "
            + "\"mean_ms\": %.4f, \"min_ms\": %.4f, \"median_ms\": %.4f}%n",
            members, ratio, topicCount, type, mean, sorted[0], sorted[2]);
    }
}
