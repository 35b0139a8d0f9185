import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.*;

/** Reads base64 lines: first line the topic names (base64 of names joined by '\n'), then one regex a line.
 *  Prints per regex: base64(regex) TAB ok|error TAB description-or-matched-topic-indices. */
public class Re2jVectors {
    public static void main(String[] args) throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String[] topics = new String(Base64.getDecoder().decode(in.readLine()), StandardCharsets.UTF_8).split("\n");
        String line;
        while ((line = in.readLine()) != null) {
            String regex = new String(Base64.getDecoder().decode(line), StandardCharsets.UTF_8);
            StringBuilder out = new StringBuilder(line).append('\t');
            try {
                Pattern p = Pattern.compile(regex);
                out.append("ok\t");
                List<String> hits = new ArrayList<>();
                for (int i = 0; i < topics.length; i++) if (p.matcher(topics[i]).matches()) hits.add(Integer.toString(i));
                out.append(String.join(",", hits));
            } catch (PatternSyntaxException e) {
                out.append("error\t").append(e.getDescription().replace('\t', ' ').replace('\n', ' '));
            }
            System.out.println(out);
        }
    }
}
