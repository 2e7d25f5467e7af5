package dev.cumulus.internal.singlevm;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A thread dump of a single-VM run: every node's program threads with their stacks and the cluster monitors they hold,
 * queue for and wait in, each monitor named by its object's class and id with its home node, and the deadlocks among
 * them (a cycle of threads each queueing for a monitor the next holds). Node 0 makes it on request (the launcher's
 * {@code --timeout}, or Ctrl-\), asking every node for its part ({@link #local}), which lists its program threads and
 * the monitors homed there: a monitor's holder and queues are known only at its home. Stateless.
 */
final class ThreadDump {
    /** How many frames of a stack a dump shows (runtime frames are left out). */
    static final int FRAMES = 12;
    static final String BEGIN = "=== Cumulus single-VM thread dump";
    static final String END = "=== end of Cumulus single-VM thread dump";

    private ThreadDump() {
    }

    /** This node's part, one record a line: {@code T id name state frames} and {@code M id label owner queue waiters}. */
    static String local(ObjectSpace space) {
        StringBuilder sb = new StringBuilder();
        for (Thread t : space.threads().runningHere()) {
            List<String> frames = new ArrayList<>();
            for (StackTraceElement f : t.getStackTrace()) {
                String c = f.getClassName();
                if (!c.startsWith("dev.cumulus.internal.") && !c.startsWith("java.") && !c.startsWith("jdk.")
                    && !c.startsWith("sun.") && frames.size() < FRAMES) {
                    frames.add(f.toString());
                }
            }
            sb.append("T\t").append(t.threadId()).append('\t').append(clean(t.getName())).append('\t')
                .append(t.getState()).append('\t').append(String.join("\u001f", frames)).append('\n');
        }
        space.heap().homedMonitors().forEach((id, m) -> {
            HomeMonitor.State st = m.state();
            if (st.owner() == null && st.entries().isEmpty() && st.waitSet().isEmpty()) {
                return;
            }
            String cls = space.masterClassName(id);
            sb.append("M\t").append(id).append('\t').append(cls == null ? "object" : cls).append(ObjectIds.describe(id))
                .append('\t').append(st.owner() == null ? "-" : key(st.owner())).append('\t')
                .append(keys(st.entries())).append('\t').append(keys(st.waitSet())).append('\n');
        });
        return sb.toString();
    }

    /** Node 0: asks every node for its part and renders the dump. */
    static String gather(ObjectSpace space, int size) {
        List<String> parts = new ArrayList<>();
        for (int k = 0; k < size; k++) {
            try {
                parts.add(space.heap().peers().threadDump(k));
            } catch (RuntimeException e) {
                parts.add("X\t" + clean(String.valueOf(e.getMessage())) + "\n");
            }
        }
        return render(parts);
    }

    private record Monitor(String label, int home, String owner, List<String> entries, List<String> waiters) {
    }

    /** The dump from every node's part (index = node id). */
    static String render(List<String> parts) {
        Map<String, String> names = new HashMap<>(); // "node:thread" -> name
        Map<String, Monitor> monitors = new LinkedHashMap<>();
        for (int node = 0; node < parts.size(); node++) {
            for (String line : parts.get(node).split("\n")) {
                String[] f = line.split("\t", -1);
                if (f[0].equals("T") && f.length >= 5) {
                    names.put(node + ":" + f[1], f[2]);
                } else if (f[0].equals("M") && f.length >= 6) {
                    monitors.put(f[1], new Monitor(f[2], node, f[3], list(f[4]), list(f[5])));
                }
            }
        }
        StringBuilder sb = new StringBuilder(BEGIN).append(" (").append(parts.size()).append(" nodes) ===\n");
        for (int node = 0; node < parts.size(); node++) {
            sb.append("node ").append(node).append(":\n");
            for (String line : parts.get(node).split("\n")) {
                String[] f = line.split("\t", -1);
                if (f[0].equals("X")) {
                    sb.append("  (no answer: ").append(f.length > 1 ? f[1] : "").append(")\n");
                }
                if (!f[0].equals("T") || f.length < 5) {
                    continue;
                }
                String me = node + ":" + f[1];
                sb.append("  \"").append(f[2]).append("\" ").append(f[3]).append('\n');
                for (Monitor m : monitors.values()) {
                    if (m.owner().equals(me)) {
                        sb.append("    holds monitor ").append(name(m)).append('\n');
                    }
                    if (m.entries().contains(me)) {
                        sb.append("    waits to enter monitor ").append(name(m)).append(", held by ")
                            .append(who(m.owner(), names)).append('\n');
                    }
                    if (m.waiters().contains(me)) {
                        sb.append("    waits in monitor ").append(name(m)).append(" (wait())\n");
                    }
                }
                if (!f[4].isEmpty()) {
                    for (String frame : f[4].split("\u001f")) {
                        sb.append("      at ").append(frame).append('\n');
                    }
                }
            }
        }
        deadlocks(monitors, names).forEach(d -> sb.append(d).append('\n'));
        return sb.append(END).append(" ===\n").toString();
    }

    /** Cycles of threads, each queueing for a monitor the next one holds. */
    private static List<String> deadlocks(Map<String, Monitor> monitors, Map<String, String> names) {
        Map<String, Monitor> waitsFor = new HashMap<>();
        for (Monitor m : monitors.values()) {
            if (!m.owner().equals("-")) {
                m.entries().forEach(t -> waitsFor.put(t, m));
            }
        }
        List<String> out = new ArrayList<>();
        Set<String> reported = new HashSet<>();
        for (String start : waitsFor.keySet()) {
            List<String> path = new ArrayList<>();
            String t = start;
            while (t != null && !path.contains(t)) {
                path.add(t);
                Monitor m = waitsFor.get(t);
                t = m == null ? null : m.owner();
            }
            if (t == null || !t.equals(start) || reported.contains(start)) {
                continue;
            }
            reported.addAll(path);
            StringBuilder sb = new StringBuilder("Deadlock across nodes:");
            for (String x : path) {
                Monitor m = waitsFor.get(x);
                sb.append("\n  ").append(who(x, names)).append(" waits for monitor ").append(name(m))
                    .append(", held by ").append(who(m.owner(), names));
            }
            out.add(sb.toString());
        }
        return out;
    }

    private static String name(Monitor m) {
        return m.label() + " (home node " + m.home() + ")";
    }

    private static String who(String key, Map<String, String> names) {
        if (key.equals("-")) {
            return "nobody";
        }
        String node = key.substring(0, key.indexOf(':'));
        String n = names.get(key);
        return (n != null ? "\"" + n + "\"" : "thread " + key.substring(key.indexOf(':') + 1)) + " on node " + node;
    }

    private static String key(Waiter w) {
        return w.node() + ":" + w.thread();
    }

    private static String keys(List<Waiter> ws) {
        List<String> out = new ArrayList<>();
        ws.forEach(w -> out.add(key(w)));
        return String.join(",", out);
    }

    private static List<String> list(String s) {
        return s.isEmpty() ? List.of() : List.of(s.split(","));
    }

    private static String clean(String s) {
        return s.replace('\t', ' ').replace('\n', ' ');
    }
}
