// java.util.PriorityQueue tie order, for tests/test_java_priority_queue.py.
// One request per stdin line: tokens "a:KEY" (add element number i, i counting adds, with a
// double KEY, compared by Comparator.comparingDouble) and "p" (poll); one reply line per
// request: the element numbers polled, space-separated ("." when none).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.Comparator;
import java.util.PriorityQueue;

public class PriorityQueueOracle {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        StringBuilder out = new StringBuilder();
        String line;
        while ((line = in.readLine()) != null) {
            PriorityQueue<double[]> q = new PriorityQueue<>(Comparator.comparingDouble((double[] e) -> e[1]));
            StringBuilder reply = new StringBuilder();
            int n = 0;
            for (String tok : line.trim().split(" ")) {
                if (tok.isEmpty()) continue;
                if (tok.equals("p")) {
                    double[] e = q.poll();
                    reply.append(e == null ? "-1" : String.valueOf((int) e[0])).append(' ');
                } else {
                    q.add(new double[] {n++, Double.parseDouble(tok.substring(2))});
                }
            }
            out.append(reply.length() == 0 ? "." : reply.toString().trim()).append('\n');
        }
        System.out.print(out);
    }
}
