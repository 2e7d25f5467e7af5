package dev.cumulus.cli.profile;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A per-object profile of a run, read from the run directory's {@code node-<i>.jfr} files with
 * {@link RecordingFile}: {@code dev.cumulus.RemoteCall} events grouped by object and method (calls, asynchronous
 * calls, failed calls, p50/p99 latency, request and reply bytes, the nodes involved) and the
 * {@code dev.cumulus.NodeLifecycle} events in time order. Used by {@code cumulus run --profile} after a run, and meant
 * for {@code cumulus profile RUN_DIR}.
 *
 * <p>Reading and printing are separate: {@link #read(Path)} builds the report, {@link #print(PrintStream)} writes it.
 * Never throws for a missing or damaged recording: it names the file in the report instead.
 */
public final class ProfileReport {
    static final String REMOTE_CALL = "dev.cumulus.RemoteCall";
    static final String NODE_LIFECYCLE = "dev.cumulus.NodeLifecycle";
    static final String BROADCAST_WRITE = "dev.cumulus.BroadcastWrite";
    static final String SEQUENCER_MIGRATION = "dev.cumulus.SequencerMigration";
    static final String CLOUD_SUMMARY = "dev.cumulus.CloudSummary";
    private static final Pattern JFR_FILE = Pattern.compile("node-(\\d+)\\.jfr");

    /** Statistics of one object's method. */
    public static final class CallStats {
        private long calls;
        private long asyncCalls;
        private long failedCalls;
        private long requestBytes;
        private long replyBytes;
        private final List<Long> latenciesNs = new ArrayList<>();
        private final TreeSet<Integer> callers = new TreeSet<>();
        private final TreeSet<Integer> targets = new TreeSet<>();

        public long calls() { return calls; }
        public long asyncCalls() { return asyncCalls; }
        public long failedCalls() { return failedCalls; }
        public long requestBytes() { return requestBytes; }
        public long replyBytes() { return replyBytes; }
        public TreeSet<Integer> callers() { return callers; }
        public TreeSet<Integer> targets() { return targets; }

        /** Latency percentile (nearest rank), in microseconds. */
        public double percentileMicros(double p) {
            if (latenciesNs.isEmpty()) {
                return 0;
            }
            List<Long> sorted = latenciesNs.stream().sorted().toList();
            int rank = (int) Math.ceil(p / 100.0 * sorted.size());
            return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1))) / 1000.0;
        }
    }

    /** One lifecycle event. */
    public record Lifecycle(Instant time, int node, String phase, int subject, String detail) {
    }

    private final Path runDir;
    private final List<String> recordings = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Map<String, CallStats>> calls = new TreeMap<>();
    private final List<Lifecycle> lifecycle = new ArrayList<>();
    private final Map<String, Map<String, CallStats>> writes = new TreeMap<>();
    private final Map<Integer, Long> sequencerArrivals = new TreeMap<>();
    private final Map<String, Map<Integer, Long>> restarts = new TreeMap<>();

    private ProfileReport(Path runDir) {
        this.runDir = runDir;
    }

    /** Reads every {@code node-<i>.jfr} in {@code runDir}; notes expected recordings that are missing. */
    public static ProfileReport read(Path runDir) {
        ProfileReport report = new ProfileReport(runDir);
        TreeMap<Integer, Path> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(runDir)) {
            s.forEach(p -> {
                Matcher m = JFR_FILE.matcher(p.getFileName().toString());
                if (m.matches()) {
                    files.put(Integer.parseInt(m.group(1)), p);
                }
            });
        } catch (IOException e) {
            report.problems.add("cannot list " + runDir + ": " + e.getMessage());
            return report;
        }
        int expected = expectedNodes(runDir);
        for (int i = 0; i < expected; i++) {
            if (!files.containsKey(i)) {
                report.problems.add("node-" + i + ".jfr is missing (the node was killed before it could write its "
                    + "recording, or it never started)");
            }
        }
        files.values().forEach(report::readFile);
        report.lifecycle.sort(Comparator.comparing(Lifecycle::time).thenComparingInt(Lifecycle::node));
        return report;
    }

    private void readFile(Path file) {
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                switch (e.getEventType().getName()) {
                    case REMOTE_CALL -> addCall(e);
                    case BROADCAST_WRITE -> addWrite(e);
                    case SEQUENCER_MIGRATION -> sequencerArrivals.merge(intField(e, "toNode"), 1L, Long::sum);
                    case CLOUD_SUMMARY -> restarts.computeIfAbsent(stringField(e, "cloud"), k -> new TreeMap<>())
                        .merge(intField(e, "node"), longField(e, "restarts"), Math::max);
                    case NODE_LIFECYCLE -> lifecycle.add(new Lifecycle(e.getStartTime(), intField(e, "node"),
                        stringField(e, "phase"), intField(e, "subject"), stringField(e, "detail")));
                    default -> {
                    }
                }
            }
            recordings.add(file.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            problems.add(file.getFileName() + " is unreadable: " + e.getMessage());
        }
    }

    private void addCall(RecordedEvent e) {
        CallStats s = calls.computeIfAbsent(stringField(e, "object"), k -> new TreeMap<>())
            .computeIfAbsent(stringField(e, "method"), k -> new CallStats());
        s.calls++;
        if (e.hasField("async") && e.getBoolean("async")) {
            s.asyncCalls++;
        }
        String outcome = stringField(e, "outcome");
        if (!outcome.isEmpty() && !outcome.equals("ok")) {
            s.failedCalls++;
        }
        s.requestBytes += longField(e, "requestBytes");
        s.replyBytes += longField(e, "replyBytes");
        s.latenciesNs.add(e.getDuration().toNanos());
        s.callers.add(intField(e, "callerNode"));
        s.targets.add(intField(e, "targetNode"));
    }

    private void addWrite(RecordedEvent e) {
        CallStats s = writes.computeIfAbsent(stringField(e, "cloud"), k -> new TreeMap<>())
            .computeIfAbsent(stringField(e, "method"), k -> new CallStats());
        s.calls++;
        s.requestBytes += longField(e, "bytes");
        s.latenciesNs.add(e.getDuration().toNanos());
        s.callers.add(intField(e, "node"));
    }

    /** Replicated writes: cloud → method → stats (calls = writes, latency = until the local replica applied it). */
    public Map<String, Map<String, CallStats>> writes() {
        return writes;
    }

    /** How often the sequencer arrived at each node. */
    public Map<Integer, Long> sequencerArrivals() {
        return sequencerArrivals;
    }

    /** Remote-call statistics: object → method → stats, both sorted by name. */
    public Map<String, Map<String, CallStats>> calls() {
        return calls;
    }

    public List<Lifecycle> lifecycle() {
        return lifecycle;
    }

    /** File names of the recordings read. */
    public List<String> recordings() {
        return recordings;
    }

    /** Missing or unreadable recordings. */
    public List<String> problems() {
        return problems;
    }

    /** Writes the report as plain text tables. */
    public void print(PrintStream out) {
        String us = canEncode(out, 'µ') ? "µs" : "us";
        StringBuilder sb = new StringBuilder();
        String nl = System.lineSeparator();
        sb.append("cumulus profile of ").append(runDir).append(": ");
        sb.append(recordings.isEmpty() ? "no recordings" : recordings.size() + " recording"
            + (recordings.size() == 1 ? "" : "s") + " (" + String.join(", ", recordings) + ")").append(nl);
        problems.forEach(p -> sb.append("  warning: ").append(p).append(nl));
        if (calls.isEmpty() && lifecycle.isEmpty() && writes.isEmpty()) {
            sb.append("  no Cumulus events recorded (no remote calls and no lifecycle changes)").append(nl);
            out.print(sb);
            out.flush();
            return;
        }
        if (calls.isEmpty()) {
            sb.append("remote calls: none recorded").append(nl);
        } else {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"object", "method", "calls", "async", "failed", "p50 " + us, "p99 " + us,
                "request bytes", "reply bytes", "nodes (callers -> targets)"});
            calls.forEach((object, methods) -> methods.forEach((method, s) -> rows.add(new String[] {
                object, method, Long.toString(s.calls), Long.toString(s.asyncCalls), Long.toString(s.failedCalls),
                String.format(Locale.ROOT, "%.1f", s.percentileMicros(50)),
                String.format(Locale.ROOT, "%.1f", s.percentileMicros(99)),
                Long.toString(s.requestBytes), Long.toString(s.replyBytes),
                join(s.callers) + " -> " + join(s.targets)})));
            sb.append("remote calls by object and method:").append(nl);
            table(sb, rows, nl);
        }
        if (!writes.isEmpty()) {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"cloud", "method", "writes", "restarts", "p50 " + us, "p99 " + us, "bytes",
                "writer nodes"});
            writes.forEach((cloud, methods) -> {
                long restarted = restarts.getOrDefault(cloud, Map.of()).values().stream().mapToLong(Long::longValue)
                    .sum();
                methods.forEach((method, s) -> rows.add(new String[] {
                    cloud, method, Long.toString(s.calls), Long.toString(restarted),
                    String.format(Locale.ROOT, "%.1f", s.percentileMicros(50)),
                    String.format(Locale.ROOT, "%.1f", s.percentileMicros(99)),
                    Long.toString(s.requestBytes), join(s.callers)}));
            });
            sb.append("replicated writes by cloud and method (latency: call to local apply):").append(nl);
            table(sb, rows, nl);
            long moves = sequencerArrivals.values().stream().mapToLong(Long::longValue).sum();
            sb.append("sequencer migrations: ").append(moves);
            if (!sequencerArrivals.isEmpty()) {
                sb.append(" (arrivals per node: ").append(sequencerArrivals.entrySet().stream()
                    .map(en -> en.getKey() + "=" + en.getValue()).collect(Collectors.joining(", "))).append(')');
            }
            sb.append(nl);
        }
        if (lifecycle.isEmpty()) {
            sb.append("lifecycle: none recorded").append(nl);
        } else {
            sb.append("lifecycle:").append(nl);
            Instant t0 = lifecycle.getFirst().time();
            for (Lifecycle l : lifecycle) {
                Duration d = Duration.between(t0, l.time());
                sb.append(String.format(Locale.ROOT, "  +%.3fs  node %d  %s", d.toNanos() / 1e9, l.node(), l.phase()));
                if (l.subject() != l.node()) {
                    sb.append(" (node ").append(l.subject()).append(')');
                }
                if (!l.detail().isEmpty()) {
                    sb.append(": ").append(l.detail());
                }
                sb.append(nl);
            }
        }
        out.print(sb);
        out.flush();
    }

    private static void table(StringBuilder sb, List<String[]> rows, String nl) {
        int cols = rows.getFirst().length;
        int[] width = new int[cols];
        for (String[] r : rows) {
            for (int i = 0; i < cols; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
        }
        for (String[] r : rows) {
            sb.append(' ');
            for (int i = 0; i < cols; i++) {
                boolean left = i < 2 || i == cols - 1;
                String cell = left ? pad(r[i], width[i], true) : pad(r[i], width[i], false);
                sb.append(' ').append(i == cols - 1 ? cell.stripTrailing() : cell);
            }
            sb.append(nl);
        }
    }

    private static String pad(String s, int width, boolean left) {
        String fill = " ".repeat(width - s.length());
        return left ? s + fill : fill + s;
    }

    private static String join(TreeSet<Integer> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private static boolean canEncode(PrintStream out, char c) {
        try {
            Charset cs = out.charset();
            return cs.newEncoder().canEncode(c);
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static int expectedNodes(Path runDir) {
        Path launch = runDir.resolve("launch.properties");
        if (!Files.isRegularFile(launch)) {
            return 0;
        }
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(launch, StandardCharsets.UTF_8)) {
            p.load(r);
            return Integer.parseInt(p.getProperty("cumulus.nodes", "0").trim());
        } catch (IOException | NumberFormatException e) {
            return 0;
        }
    }

    private static String stringField(RecordedEvent e, String name) {
        if (!e.hasField(name)) {
            return "";
        }
        String v = e.getString(name);
        return v == null ? "" : v;
    }

    private static int intField(RecordedEvent e, String name) {
        return e.hasField(name) ? e.getInt(name) : -1;
    }

    private static long longField(RecordedEvent e, String name) {
        return e.hasField(name) ? e.getLong(name) : 0;
    }
}
