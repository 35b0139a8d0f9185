// Prints what OpenJDK's own String and HashMap/HashSet do, for tests/test_java_oracle.py.
// One request per stdin line: "<mode> <key> <key> ...", each key as 4-hex-digit UTF-16 code
// units ("." = the empty string). One reply line per request, keys encoded the same way.
//   map      new HashMap<>(), put(k) in order          -> keySet() iteration order
//   cia      new HashMap<>(), computeIfAbsent(k) in order -> keySet() iteration order
//   copyset  new HashSet<>(list of keys)               -> iteration order
//   sort     Collections.sort (String.compareTo)       -> sorted keys
//   hash     String.hashCode() of each key             -> decimal ints
// Numeric requests (decimal arguments):
//   random SEED BOUND COUNT   new Random(SEED): COUNT x nextInt(BOUND) (BOUND 0: nextInt()),
//                             then nextLong(), nextBoolean(), nextDouble() (as raw long bits)
//   shuffle SEED N            Collections.shuffle([0..N-1], new Random(SEED))
//   intset V V ...            new HashSet<Integer>(), add in order -> iteration order
// Mixed: ops CAP OP KEY OP KEY ...  new HashMap<>(CAP) (CAP -1: new HashMap<>()), OP "+" put,
//                             "-" remove, "c" clear; keys hex as above -> keySet() order
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

public class JavaOrderOracle {
    static String decode(String hex) {
        if (hex.equals(".")) return "";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < hex.length(); i += 4) {
            sb.append((char) Integer.parseInt(hex.substring(i, i + 4), 16));
        }
        return sb.toString();
    }

    static String encode(String s) {
        if (s.isEmpty()) return ".";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < s.length(); i++) sb.append(String.format("%04x", (int) s.charAt(i)));
        return sb.toString();
    }

    static boolean numeric(String[] parts, StringBuilder out) {
        switch (parts[0]) {
            case "random": {
                java.util.Random r = new java.util.Random(Long.parseLong(parts[1]));
                int bound = Integer.parseInt(parts[2]);
                int count = Integer.parseInt(parts[3]);
                for (int i = 0; i < count; i++) out.append(bound == 0 ? r.nextInt() : r.nextInt(bound)).append(' ');
                out.append(r.nextLong()).append(' ').append(r.nextBoolean()).append(' ');
                out.append(Double.doubleToLongBits(r.nextDouble())).append('\n');
                return true;
            }
            case "shuffle": {
                List<Integer> list = new ArrayList<>();
                for (int i = 0; i < Integer.parseInt(parts[2]); i++) list.add(i);
                Collections.shuffle(list, new java.util.Random(Long.parseLong(parts[1])));
                for (int v : list) out.append(v).append(' ');
                out.append('\n');
                return true;
            }
            case "intset": {
                Set<Integer> set = new HashSet<>();
                for (int i = 1; i < parts.length; i++) set.add(Integer.parseInt(parts[i]));
                for (int v : set) out.append(v).append(' ');
                out.append('\n');
                return true;
            }
            default:
                return false;
        }
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            String[] parts = line.split(" ");
            if (numeric(parts, out)) continue;
            if (parts[0].equals("ops")) {
                int cap = Integer.parseInt(parts[1]);
                Map<String, Integer> m = cap < 0 ? new HashMap<>() : new HashMap<>(cap);
                for (int i = 2; i < parts.length; i += 2) {
                    if (parts[i].equals("+")) m.put(decode(parts[i + 1]), 1);
                    else if (parts[i].equals("-")) m.remove(decode(parts[i + 1]));
                    else m.clear();
                }
                for (String k : m.keySet()) out.append(encode(k)).append(' ');
                out.append('\n');
                continue;
            }
            List<String> keys = new ArrayList<>();
            for (int i = 1; i < parts.length; i++) keys.add(decode(parts[i]));
            List<String> result = new ArrayList<>();
            switch (parts[0]) {
                case "map": {
                    Map<String, Integer> m = new HashMap<>();
                    for (String k : keys) m.put(k, 1);
                    result.addAll(m.keySet());
                    break;
                }
                case "cia": {
                    Map<String, List<Integer>> m = new HashMap<>();
                    for (String k : keys) m.computeIfAbsent(k, x -> new ArrayList<>());
                    result.addAll(m.keySet());
                    break;
                }
                case "copyset":
                    result.addAll(new HashSet<>(keys));
                    break;
                case "sort":
                    result.addAll(keys);
                    Collections.sort(result);
                    break;
                case "hash":
                    for (String k : keys) out.append(k.hashCode()).append(' ');
                    out.append('\n');
                    continue;
                default:
                    throw new IllegalArgumentException(parts[0]);
            }
            for (String k : result) out.append(encode(k)).append(' ');
            out.append('\n');
        }
        System.out.print(out);
    }
}
