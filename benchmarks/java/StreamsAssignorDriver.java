// Times Kafka's own org.apache.kafka.coordinator.group.streams.assignor.StickyTaskAssignor on
// the shape of benchmarks/bench_streams_assignor.py (compiled by that script against Kafka's
// sources; no Kafka code is shipped with kpart).
// args: SUBTOPOLOGIES TASKS_PER_SUBTOPOLOGY PROCESSES MEMBERS_PER_PROCESS STANDBYS REPEATS
// prints: "fresh MS DIGEST" and "incremental MS DIGEST" (median ms; MD5 of the sorted result).
import java.security.MessageDigest;
import java.util.*;
import org.apache.kafka.coordinator.group.streams.assignor.*;

public class StreamsAssignorDriver {
    public static void main(String[] a) throws Exception {
        int subs = Integer.parseInt(a[0]), tasks = Integer.parseInt(a[1]);
        int procs = Integer.parseInt(a[2]), perProc = Integer.parseInt(a[3]);
        String standby = a[4];
        int reps = Integer.parseInt(a[5]);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < subs; i++) ids.add(String.format("s%03d", i));
        TopologyDescriber topo = new TopologyDescriber() {
            public List<String> subtopologies() { return ids; }
            public int maxNumInputPartitions(String s) { return tasks; }
            public boolean isStateful(String s) { return true; }
        };
        Map<String, AssignmentMemberSpec> fresh = new HashMap<>();
        for (int p = 0; p < procs; p++)
            for (int t = 0; t < perProc; t++)
                fresh.put("app-" + p + "-StreamThread-" + t, spec(Map.of(), Map.of(), String.format("proc-%04d", p)));
        Map<String, String> configs = Map.of("num.standby.replicas", standby);
        GroupAssignment first = run("fresh", new GroupSpecImpl(fresh, configs), topo, reps);
        Map<String, AssignmentMemberSpec> incr = new HashMap<>();
        for (String m : fresh.keySet()) {
            MemberAssignment ma = first.members().get(m);
            incr.put(m, spec(ma.activeTasks(), ma.standbyTasks(), fresh.get(m).processId()));
        }
        incr.put("newMember", spec(Map.of(), Map.of(), "process-newMember"));
        run("incremental", new GroupSpecImpl(incr, configs), topo, reps);
    }

    static AssignmentMemberSpec spec(Map<String, Set<Integer>> act, Map<String, Set<Integer>> stb, String proc) {
        return new AssignmentMemberSpec(Optional.empty(), Optional.empty(), act, stb, Map.of(), proc,
            Map.of(), Map.of(), Map.of());
    }

    static GroupAssignment run(String name, GroupSpec spec, TopologyDescriber topo, int reps) throws Exception {
        GroupAssignment out = null;
        for (int i = 0; i < 20; i++) out = new StickyTaskAssignor().assign(spec, topo);  // warm-up
        long[] times = new long[reps];
        for (int i = 0; i < reps; i++) {
            long t0 = System.nanoTime();
            out = new StickyTaskAssignor().assign(spec, topo);
            times[i] = System.nanoTime() - t0;
        }
        Arrays.sort(times);
        System.out.printf(Locale.ROOT, "%s %.3f %s%n", name, times[reps / 2] / 1e6, digest(out));
        return out;
    }

    static String digest(GroupAssignment g) throws Exception {
        StringBuilder sb = new StringBuilder();
        for (String m : new TreeSet<>(g.members().keySet())) {
            MemberAssignment ma = g.members().get(m);
            sb.append(m).append('|').append(text(ma.activeTasks())).append('|').append(text(ma.standbyTasks())).append('\n');
        }
        byte[] d = MessageDigest.getInstance("MD5").digest(sb.toString().getBytes("UTF-8"));
        StringBuilder hex = new StringBuilder();
        for (byte b : d) hex.append(String.format("%02x", b));
        return hex.toString();
    }

    static String text(Map<String, Set<Integer>> m) {
        StringBuilder sb = new StringBuilder();
        for (String s : new TreeSet<>(m.keySet())) {
            if (m.get(s).isEmpty()) continue;
            sb.append(s).append(':').append(new TreeSet<>(m.get(s))).append(';');
        }
        return sb.toString();
    }
}
