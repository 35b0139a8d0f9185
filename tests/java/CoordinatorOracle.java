// Prints Kafka's coordinator formulas computed with plain Java 17 (no Kafka code), for
// tests/test_java_coordinator.py. Kafka's Utils.abs is (n == Integer.MIN_VALUE) ? 0 : Math.abs(n);
// Utils.toPositive is n & 0x7fffffff; Utils.murmur2 is Commons Codec's MurmurHash2.hash32
// (same seed 0x9747b28c), which the test passes on the classpath from pyspark/jars.
// One request per stdin line, strings as 4-hex-digit UTF-16 code units ("." = empty):
//   hash KEY N              -> String.hashCode(), then abs(hashCode) % N
//   share GROUP TOPICID P N -> String.format("%s:%s:%d", group, topicId, p) hex, then its % N
//   rlmm TOPICID P N        -> Objects.hash(lsb, msb, p), then toPositive(murmur2(bytes)) % N
//   objects L1 L2 I         -> Objects.hash(Long L1, Long L2, Integer I)
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Locale;
import java.util.Objects;

public class CoordinatorOracle {
    static String decode(String hex) {
        if (hex.equals(".")) return "";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 4) sb.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
        return sb.toString();
    }

    static String encode(String s) {
        if (s.isEmpty()) return ".";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) sb.append(String.format("%04x", (int) s.charAt(i)));
        return sb.toString();
    }

    static int abs(int n) {
        return (n == Integer.MIN_VALUE) ? 0 : Math.abs(n);
    }

    public static void main(String[] args) throws Exception {
        Locale.setDefault(Locale.ROOT);
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] p = line.split(" ");
            switch (p[0]) {
                case "hash": {
                    int h = decode(p[1]).hashCode();
                    out.append(h).append(' ').append(abs(h) % Integer.parseInt(p[2]));
                    break;
                }
                case "share": {
                    String key = String.format("%s:%s:%d", decode(p[1]), p[2], Integer.parseInt(p[3]));
                    out.append(encode(key)).append(' ').append(abs(key.hashCode()) % Integer.parseInt(p[4]));
                    break;
                }
                case "rlmm": {
                    ByteBuffer id = ByteBuffer.wrap(Base64.getUrlDecoder().decode(p[1]));
                    long msb = id.getLong();
                    long lsb = id.getLong();
                    int hash = Objects.hash(lsb, msb, Integer.parseInt(p[2]));
                    byte[] bytes = ByteBuffer.allocate(4).putInt(hash).array();
                    int m = org.apache.commons.codec.digest.MurmurHash2.hash32(bytes, 4);
                    out.append(hash).append(' ').append((m & 0x7fffffff) % Integer.parseInt(p[3]));
                    break;
                }
                case "objects": {
                    out.append(Objects.hash(Long.parseLong(p[1]), Long.parseLong(p[2]), Integer.parseInt(p[3])));
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
