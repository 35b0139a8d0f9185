// Prints what OpenJDK does with the keys of Kafka's share-group assignor (SimpleAssignor), for
// tests/consumer/test_share_java_orders.py. One request per stdin line, one reply line each.
//   hash MSB LSB P ...        hashCode() of record TopicIdPartition(Uuid(MSB, LSB), P), per triple
//   tip CAP OP MSB LSB P ...  new HashMap<TopicIdPartition, ..>(CAP) (CAP -1: new HashMap<>()),
//                             OP "+" put, "c" computeIfAbsent, "-" remove -> keySet() order as MSB:LSB:P
//   int CAP OP V ...          the same with Integer keys -> keySet() order
// Uuid is Kafka's hashCode (org.apache.kafka.common.Uuid, branch 4.3): (int) (x >> 32) ^ (int) x,
// x = msb ^ lsb; TopicIdPartition is declared exactly as in Kafka 4.3 (server-common), so its
// hashCode is the one javac + ObjectMethods generate for that record.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

public class ShareOrderOracle {
    static final class Uuid {
        final long msb;
        final long lsb;
        Uuid(long msb, long lsb) { this.msb = msb; this.lsb = lsb; }
        @Override public int hashCode() { long x = msb ^ lsb; return (int) (x >> 32) ^ (int) x; }
        @Override public boolean equals(Object o) {
            return o instanceof Uuid u && u.msb == msb && u.lsb == lsb;
        }
    }

    record TopicIdPartition(Uuid topicId, int partitionId) { }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] p = line.split(" ");
            switch (p[0]) {
                case "hash":
                    for (int i = 1; i < p.length; i += 3) {
                        TopicIdPartition k = new TopicIdPartition(
                            new Uuid(Long.parseLong(p[i]), Long.parseLong(p[i + 1])), Integer.parseInt(p[i + 2]));
                        out.append(k.hashCode()).append(' ');
                    }
                    break;
                case "tip": {
                    int cap = Integer.parseInt(p[1]);
                    Map<TopicIdPartition, Integer> m = cap < 0 ? new HashMap<>() : new HashMap<>(cap);
                    for (int i = 2; i < p.length; i += 4) {
                        TopicIdPartition k = new TopicIdPartition(
                            new Uuid(Long.parseLong(p[i + 1]), Long.parseLong(p[i + 2])), Integer.parseInt(p[i + 3]));
                        if (p[i].equals("+")) m.put(k, 1);
                        else if (p[i].equals("c")) m.computeIfAbsent(k, x -> 1);
                        else m.remove(k);
                    }
                    for (TopicIdPartition k : m.keySet())
                        out.append(k.topicId().msb).append(':').append(k.topicId().lsb).append(':').append(k.partitionId()).append(' ');
                    break;
                }
                case "int": {
                    int cap = Integer.parseInt(p[1]);
                    Map<Integer, Integer> m = cap < 0 ? new HashMap<>() : new HashMap<>(cap);
                    for (int i = 2; i < p.length; i += 2) {
                        Integer k = Integer.parseInt(p[i + 1]);
                        if (p[i].equals("+")) m.put(k, 1);
                        else if (p[i].equals("c")) m.computeIfAbsent(k, x -> 1);
                        else m.remove(k);
                    }
                    for (Integer k : m.keySet()) out.append(k).append(' ');
                    break;
                }
                default:
                    throw new IllegalArgumentException(p[0]);
            }
            out.append('\n');
        }
        System.out.print(out);
    }
}
