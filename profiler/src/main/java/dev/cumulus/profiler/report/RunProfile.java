package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Events;
import dev.cumulus.profiler.Latencies;
import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.stream.Stream;

/**
 * The per-object profile of one run, aggregated from the {@code node-<i>.jfr} files of its run directory:
 * <ul>
 *   <li>remote objects: {@code dev.cumulus.RemoteCall} by object and method (calls, asynchronous, failed, latency,
 *       bytes, callers and targets); where each object lived over time, its moves ({@code dev.cumulus.Migration}),
 *       its calls by caller node and the moves the calls suggest ({@link Placements}). A call that reached a
 *       forwarding address counts there as forwarded, not as a call;</li>
 *   <li>clouds: {@code dev.cumulus.BroadcastWrite} by cloud and method (writes, time to local apply, bytes, writers),
 *       restarts from {@code dev.cumulus.CloudSummary} (cumulative counters: the largest value per node counts),
 *       sequencer migrations and where the sequencer was over time;</li>
 *   <li>tuple elements: {@code dev.cumulus.PastSetOperation} and {@code dev.cumulus.PastSetSummary};</li>
 *   <li>shared arrays: any {@code dev.cumulus.*} event with an {@code array} field; with a {@code partition} field it
 *       counts per partition and node (name with "Miss": a miss, "Invalidation": an invalidation, "Ownership": an
 *       ownership transfer), without one its numeric fields are per-period counters (hits, misses, bytes,
 *       invalidations);</li>
 *   <li>the single-VM mode's shared heap ({@link SingleVmHeap}): fetches and write-backs per class and field, remote
 *       monitor waits per class, invalidations per node;</li>
 *   <li>other {@code dev.cumulus.*} events: counted by event and key field ({@code barrier}, {@code object}, ...);</li>
 *   <li>per node totals, and lifecycle changes in time order.</li>
 * </ul>
 * Never throws for a missing or damaged recording: {@link #problems()} names it. Not thread-safe; build it on one
 * thread, then read it from any.
 */
public final class RunProfile {
    private static final Pattern JFR_FILE = Pattern.compile("node-(\\d+)\\.jfr");
    private static final List<String> KEY_FIELDS = List.of("object", "cloud", "element", "barrier", "name");

    /** Statistics of one method of one object (remote calls) or cloud (writes). */
    public static final class CallStats {
        long calls;
        long asyncCalls;
        long failedCalls;
        long requestBytes;
        long replyBytes;
        final Latencies latenciesNs = new Latencies();
        final LatencyTimeline timeline = new LatencyTimeline();
        final TreeSet<Integer> callers = new TreeSet<>();
        final TreeSet<Integer> targets = new TreeSet<>();

        public long calls() { return calls; }
        public long asyncCalls() { return asyncCalls; }
        public long failedCalls() { return failedCalls; }
        /** Request bytes of calls; the write's argument bytes for clouds. */
        public long requestBytes() { return requestBytes; }
        public long replyBytes() { return replyBytes; }
        /** Calling (writing) nodes. */
        public TreeSet<Integer> callers() { return callers; }
        public TreeSet<Integer> targets() { return targets; }
        public Latencies latenciesNs() { return latenciesNs; }
        /** The same latencies over time (by end time). */
        public LatencyTimeline timeline() { return timeline; }

        /** Latency percentile in microseconds (to within 1 %). */
        public double percentileMicros(double p) {
            return latenciesNs.percentileMicros(p);
        }
    }

    /** One lifecycle event. */
    public record Lifecycle(Instant time, int node, String phase, int subject, String detail) {
    }

    /** The sequencer arrived at {@code to} at {@code timeNs} (ns since the epoch). */
    public record Migration(long timeNs, int from, int to, long nextSeq, String reason) {
    }

    /** A tuple element (PastSet): remote operations seen by callers plus the home node's summaries. */
    public static final class ElementStats {
        long moves;
        long observes;
        long remoteOperations;
        long blockedNs;
        long bytes;
        long errors;
        long maxDistance;
        int maxWaiting;
        final Latencies remoteLatenciesNs = new Latencies();
        final TreeSet<Integer> homes = new TreeSet<>();
        final TreeSet<Integer> callers = new TreeSet<>();
        boolean summarised;
        long remoteMoves;
        long remoteObserves;
        long remoteBlockedNs;

        /**
         * Moves: the home's summaries count every move (local and remote), the callers' events the remote ones; the
         * larger of the two (a node's last partial second of summaries may be missing from its recording).
         */
        public long moves() { return summarised ? Math.max(moves, remoteMoves) : remoteMoves; }
        public long observes() { return summarised ? Math.max(observes, remoteObserves) : remoteObserves; }
        public long remoteOperations() { return summarised ? Math.max(remoteOperations, remoteMoves + remoteObserves)
            : remoteMoves + remoteObserves; }
        /** Time all operations (local and remote) blocked at the home node, from its summaries. */
        public long blockedNs() { return summarised ? Math.max(blockedNs, remoteBlockedNs) : remoteBlockedNs; }
        /** Time the remote operations blocked at the home node (part of their round trip), from the callers' events. */
        public long remoteBlockedNs() { return remoteBlockedNs; }
        /** Tuple bytes moved across nodes. */
        public long bytes() { return bytes; }
        public long errors() { return errors; }
        public long maxDistance() { return maxDistance; }
        public int maxWaiting() { return maxWaiting; }
        public Latencies remoteLatenciesNs() { return remoteLatenciesNs; }
        public TreeSet<Integer> homes() { return homes; }
        public TreeSet<Integer> callers() { return callers; }
    }

    /** One array partition on one node. */
    public static final class Cell {
        long misses;
        long invalidations;
        long ownershipTransfers;
        long other;
        long bytes;

        public long misses() { return misses; }
        public long invalidations() { return invalidations; }
        public long ownershipTransfers() { return ownershipTransfers; }
        public long other() { return other; }
        public long bytes() { return bytes; }
    }

    /** One array on one node, from per-period summaries. */
    public static final class ArrayNode {
        long hits;
        long misses;
        long invalidations;
        long bytes;
        long eventMisses;
        long eventInvalidations;
        long eventBytes;

        public long hits() { return hits; }
        /** Misses: the larger of the miss events and the summaries' miss counters. */
        public long misses() { return Math.max(misses, eventMisses); }
        public long invalidations() { return Math.max(invalidations, eventInvalidations); }
        /** The larger of {@link #bytesSent()} and {@link #bytesReceived()}. */
        public long bytes() { return Math.max(bytes, eventBytes); }
        /** Partition data this node sent (grants it gave as a home, forwarded copies), from the summaries. */
        public long bytesSent() { return bytes; }
        /** Partition data this node's misses brought in, from the miss events. */
        public long bytesReceived() { return eventBytes; }
    }

    /** A shared array (any event with an {@code array} field). */
    public static final class ArrayStats {
        /** partition → node → cell. */
        final TreeMap<Integer, TreeMap<Integer, Cell>> partitions = new TreeMap<>();
        final TreeMap<Integer, ArrayNode> nodes = new TreeMap<>();
        final Latencies missLatenciesNs = new Latencies();
        long ownershipTransfers;

        public TreeMap<Integer, TreeMap<Integer, Cell>> partitions() { return partitions; }
        public TreeMap<Integer, ArrayNode> nodes() { return nodes; }
        public Latencies missLatenciesNs() { return missLatenciesNs; }
        public long ownershipTransfers() { return ownershipTransfers; }
        public long misses() { return nodes.values().stream().mapToLong(ArrayNode::misses).sum(); }
        public long invalidations() { return nodes.values().stream().mapToLong(ArrayNode::invalidations).sum(); }
        public long bytes() { return nodes.values().stream().mapToLong(ArrayNode::bytes).sum(); }
        public long hits() { return nodes.values().stream().mapToLong(ArrayNode::hits).sum(); }

        ArrayNode node(int node) {
            return nodes.computeIfAbsent(node, k -> new ArrayNode());
        }
    }

    /** An unknown {@code dev.cumulus.*} event, by key. */
    public static final class OtherStats {
        long count;
        long totalDurationNs;
        long maxDurationNs;
        long bytes;
        final TreeSet<Integer> nodes = new TreeSet<>();

        public long count() { return count; }
        public long totalDurationNs() { return totalDurationNs; }
        public long maxDurationNs() { return maxDurationNs; }
        public long bytes() { return bytes; }
        public TreeSet<Integer> nodes() { return nodes; }
    }

    /** Per node totals (by the node the event names, else the recording's node). */
    public static final class NodeTotals {
        long events;
        long remoteCalls;
        long remoteBytes;
        long failedCalls;
        long writes;
        long writeBytes;
        long sequencerArrivals;
        long tupleOperations;
        long tupleBytes;
        long arrayMisses;
        long arrayBytes;

        public long events() { return events; }
        /** Remote calls this node made. */
        public long remoteCalls() { return remoteCalls; }
        public long remoteBytes() { return remoteBytes; }
        public long failedCalls() { return failedCalls; }
        /** Replicated writes this node issued. */
        public long writes() { return writes; }
        public long writeBytes() { return writeBytes; }
        public long sequencerArrivals() { return sequencerArrivals; }
        /** Remote tuple operations this node made. */
        public long tupleOperations() { return tupleOperations; }
        public long tupleBytes() { return tupleBytes; }
        public long arrayMisses() { return arrayMisses; }
        public long arrayBytes() { return arrayBytes; }
        /** Bytes this node put on the wire by the events' accounts. */
        public long bytes() { return remoteBytes + writeBytes + tupleBytes + arrayBytes; }
    }

    private final Path runDir;
    private final List<String> recordings = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private final Map<String, Map<String, CallStats>> calls = new TreeMap<>();
    private final Map<String, Map<String, CallStats>> writes = new TreeMap<>();
    private final Map<String, Map<Integer, Long>> restarts = new TreeMap<>();
    private final Map<String, String> cloudClasses = new TreeMap<>();
    private final Map<Integer, Long> sequencerArrivals = new TreeMap<>();
    private final List<Migration> migrations = new ArrayList<>();
    private final List<Lifecycle> lifecycle = new ArrayList<>();
    private final Map<String, ElementStats> elements = new TreeMap<>();
    private final Map<String, ArrayStats> arrays = new TreeMap<>();
    private final Map<String, OtherStats> other = new TreeMap<>();
    private final Map<Integer, NodeTotals> nodes = new TreeMap<>();
    private final Placements placements = new Placements();
    private final SingleVmHeap singleVm = new SingleVmHeap();
    private final Map<Integer, JvmStats> jvm = new TreeMap<>();
    private final CallTimeline callTimeline = new CallTimeline();
    private int expectedNodes;
    private boolean profiled = true;
    private long firstNs = Long.MAX_VALUE;
    private long lastNs = Long.MIN_VALUE;

    private RunProfile(Path runDir) {
        this.runDir = runDir;
    }

    /** Reads every {@code node-<i>.jfr} in {@code runDir}; notes expected recordings that are missing. */
    public static RunProfile read(Path runDir) {
        RunProfile p = new RunProfile(runDir);
        TreeMap<Integer, Path> files = new TreeMap<>();
        try (Stream<Path> s = Files.list(runDir)) {
            s.forEach(f -> {
                Matcher m = JFR_FILE.matcher(f.getFileName().toString());
                if (m.matches()) {
                    files.put(Integer.parseInt(m.group(1)), f);
                }
            });
        } catch (IOException e) {
            p.problems.add("cannot list " + runDir + ": " + e.getMessage());
            return p;
        }
        Properties launch = launchProperties(runDir);
        p.expectedNodes = expectedNodes(launch);
        p.profiled = !"false".equals(launch.getProperty("cumulus.profile", "").trim());
        if (!p.profiled && files.isEmpty()) {
            p.problems.add("the run was made without --profile, so its nodes wrote no recordings; run it again with "
                + "cumulus run --profile to profile it");
            return p;
        }
        for (int i = 0; i < p.expectedNodes; i++) {
            if (!files.containsKey(i)) {
                p.problems.add("node-" + i + ".jfr is missing (the node was killed before it could write its "
                    + "recording, or it never started)");
            }
        }
        files.forEach(p::readFile);
        p.finish();
        return p;
    }

    private void readFile(int fileNode, Path file) {
        try (RecordingFile rf = new RecordingFile(file)) {
            while (rf.hasMoreEvents()) {
                RecordedEvent e = rf.readEvent();
                if (Events.isCumulus(e)) {
                    accept(e, fileNode);
                } else if (JvmStats.reads(e.getEventType().getName())) {
                    jvm(fileNode).accept(e);
                }
            }
            recordings.add(file.getFileName().toString());
        } catch (IOException | RuntimeException e) {
            problems.add(file.getFileName() + " is unreadable: " + e.getMessage());
        }
    }

    private void finish() {
        lifecycle.sort(Comparator.comparing(Lifecycle::time).thenComparingInt(Lifecycle::node));
        migrations.sort(Comparator.comparingLong(Migration::timeNs).thenComparingLong(Migration::nextSeq));
        placements.finish();
        // array figures per node: the larger of miss events and summary counters, never both
        for (ArrayStats a : arrays.values()) {
            a.nodes.forEach((node, an) -> {
                NodeTotals t = totals(node);
                t.arrayMisses += an.misses();
                t.arrayBytes += an.bytes();
            });
        }
    }

    /** The JDK events' figures of node {@code node}'s recording. */
    JvmStats jvm(int node) {
        return jvm.computeIfAbsent(node, k -> new JvmStats());
    }

    private NodeTotals totals(int node) {
        return nodes.computeIfAbsent(node, k -> new NodeTotals());
    }

    private static int or(int node, int fallback) {
        return node >= 0 ? node : fallback;
    }

    /** Adds one {@code dev.cumulus.*} event recorded by node {@code fileNode}. */
    void accept(RecordedEvent e, int fileNode) {
        String name = e.getEventType().getName();
        long endNs = Events.endEpochNs(e);
        Instant start = e.getStartTime();
        firstNs = Math.min(firstNs, start.getEpochSecond() * 1_000_000_000L + start.getNano());
        lastNs = Math.max(lastNs, endNs);
        if (SingleVmHeap.handles(name)) {
            singleVm.add(e, name, fileNode);
            totals(or(Events.node(e, "node"), fileNode)).events++;
            return;
        }
        switch (name) {
            case Events.REMOTE_CALL -> addCall(e, endNs, fileNode);
            case Events.REMOTE_CALL_SERVED -> {
                int serving = or(Events.node(e, "servingNode"), fileNode);
                callTimeline.addServed(new CallTimeline.Span(Events.node(e, "callerNode"), serving,
                    Events.amount(e, "callId"), Events.str(e, "object"), Events.str(e, "method"),
                    Events.epochNs(e.getStartTime()), endNs, Events.str(e, "outcome"), Events.flag(e, "deferred")));
                totals(serving).events++;
            }
            case Events.BROADCAST_WRITE -> addWrite(e, endNs, fileNode);
            case Events.SEQUENCER_MIGRATION -> {
                int to = or(Events.node(e, "toNode"), fileNode);
                sequencerArrivals.merge(to, 1L, Long::sum);
                migrations.add(new Migration(endNs, Events.node(e, "fromNode"), to, Events.amount(e, "nextSeq"),
                    Events.str(e, "reason")));
                totals(to).sequencerArrivals++;
                totals(to).events++;
            }
            case Events.CLOUD_SUMMARY -> {
                int node = or(Events.node(e, "node"), fileNode);
                restarts.computeIfAbsent(Events.str(e, "cloud"), k -> new TreeMap<>())
                    .merge(node, Events.amount(e, "restarts"), Math::max);
                String className = Events.str(e, "className");
                if (!className.isEmpty()) {
                    cloudClasses.put(Events.str(e, "cloud"), className);
                }
                totals(node).events++;
            }
            case Events.NODE_LIFECYCLE -> {
                lifecycle.add(new Lifecycle(e.getStartTime(), Events.node(e, "node"), Events.str(e, "phase"),
                    Events.node(e, "subject"), Events.str(e, "detail")));
                totals(or(Events.node(e, "node"), fileNode)).events++;
            }
            case Events.MIGRATION -> {
                int from = or(Events.node(e, "fromNode"), fileNode);
                placements.addMove(new Placements.Move(Events.str(e, "object"), endNs, Events.str(e, "kind"), from,
                    Events.node(e, "toNode"), Events.amount(e, "stateBytes"), Events.amount(e, "pauseNs"),
                    Events.amount(e, "callsHeld"), Events.str(e, "reason"), Events.str(e, "outcome")));
                totals(from).events++;
            }
            case Events.PASTSET_OPERATION -> addTupleOperation(e, fileNode);
            case Events.PASTSET_SUMMARY -> addTupleSummary(e, fileNode);
            default -> {
                if (e.hasField("array")) {
                    addArrayEvent(e, name, fileNode);
                } else {
                    addOther(e, name, fileNode);
                }
            }
        }
    }

    private void addCall(RecordedEvent e, long endNs, int fileNode) {
        String object = Events.str(e, "object");
        String outcome = Events.str(e, "outcome");
        int caller = or(Events.node(e, "callerNode"), fileNode);
        placements.addCall(object, caller, Events.node(e, "targetNode"), outcome, endNs);
        if (outcome.equals(Events.MOVED)) {
            NodeTotals t = totals(caller);
            t.events++;
            t.remoteBytes += Events.amount(e, "requestBytes"); // sent, though it ran only after the forward
            return;
        }
        CallStats s = calls.computeIfAbsent(object, k -> new TreeMap<>())
            .computeIfAbsent(Events.str(e, "method"), k -> new CallStats());
        s.calls++;
        if (Events.flag(e, "async")) {
            s.asyncCalls++;
        }
        boolean failed = !outcome.isEmpty() && !outcome.equals("ok");
        if (failed) {
            s.failedCalls++;
        }
        long req = Events.amount(e, "requestBytes");
        long reply = Events.amount(e, "replyBytes");
        s.requestBytes += req;
        s.replyBytes += reply;
        long latencyNs = e.getDuration().toNanos();
        s.latenciesNs.add(latencyNs);
        s.timeline.add(endNs, latencyNs);
        s.callers.add(caller);
        s.targets.add(Events.node(e, "targetNode"));
        callTimeline.addCaller(new CallTimeline.Span(caller, Events.node(e, "targetNode"), Events.amount(e, "callId"),
            object, Events.str(e, "method"), endNs - latencyNs, endNs, outcome, false));
        NodeTotals t = totals(caller);
        t.events++;
        t.remoteCalls++;
        t.remoteBytes += req;
        if (failed) {
            t.failedCalls++;
        }
    }

    private void addWrite(RecordedEvent e, long endNs, int fileNode) {
        CallStats s = writes.computeIfAbsent(Events.str(e, "cloud"), k -> new TreeMap<>())
            .computeIfAbsent(Events.str(e, "method"), k -> new CallStats());
        long bytes = Events.amount(e, "bytes");
        int node = or(Events.node(e, "node"), fileNode);
        s.calls++;
        s.requestBytes += bytes;
        long latencyNs = e.getDuration().toNanos();
        s.latenciesNs.add(latencyNs);
        s.timeline.add(endNs, latencyNs);
        s.callers.add(node);
        NodeTotals t = totals(node);
        t.events++;
        t.writes++;
        t.writeBytes += bytes;
    }

    private void addTupleOperation(RecordedEvent e, int fileNode) {
        ElementStats s = elements.computeIfAbsent(Events.str(e, "element"), k -> new ElementStats());
        String op = Events.str(e, "operation");
        if (op.startsWith("move")) {
            s.remoteMoves++;
        } else {
            s.remoteObserves++;
        }
        long bytes = Events.amount(e, "bytes");
        s.bytes += bytes;
        s.remoteBlockedNs += Events.amount(e, "blockedNs");
        s.remoteLatenciesNs.add(e.getDuration().toNanos());
        if (!Events.str(e, "outcome").isEmpty() && !Events.str(e, "outcome").equals("ok")) {
            s.errors++;
        }
        int caller = or(Events.node(e, "callerNode"), fileNode);
        s.callers.add(caller);
        int home = Events.node(e, "homeNode");
        if (home >= 0) {
            s.homes.add(home);
        }
        NodeTotals t = totals(caller);
        t.events++;
        t.tupleOperations++;
        t.tupleBytes += bytes;
    }

    private void addTupleSummary(RecordedEvent e, int fileNode) {
        ElementStats s = elements.computeIfAbsent(Events.str(e, "element"), k -> new ElementStats());
        s.summarised = true;
        s.moves += Events.amount(e, "moves");
        s.observes += Events.amount(e, "observes");
        s.remoteOperations += Events.amount(e, "remoteOperations");
        s.blockedNs += Events.amount(e, "blockedNs");
        s.maxDistance = Math.max(s.maxDistance, Events.amount(e, "distance"));
        s.maxWaiting = Math.max(s.maxWaiting, (int) Events.amount(e, "waiting"));
        int node = or(Events.node(e, "node"), fileNode);
        s.homes.add(node);
        totals(node).events++;
    }

    private void addArrayEvent(RecordedEvent e, String name, int fileNode) {
        ArrayStats a = arrays.computeIfAbsent(Events.str(e, "array"), k -> new ArrayStats());
        int node = or(Events.node(e, "node"), fileNode);
        long bytes = 0;
        for (ValueDescriptor d : e.getFields()) {
            if (Events.isNumber(d) && Events.isBytes(d)) {
                bytes += Events.amount(e, d.getName());
            }
        }
        NodeTotals t = totals(node);
        t.events++;
        ArrayNode an = a.node(node);
        String lower = Events.shortName(name).toLowerCase(Locale.ROOT);
        if (e.hasField("partition")) {
            int partition = (int) Events.amount(e, "partition");
            Cell c = a.partitions.computeIfAbsent(partition, k -> new TreeMap<>())
                .computeIfAbsent(node, k -> new Cell());
            c.bytes += bytes;
            an.eventBytes += bytes;
            if (lower.contains("miss")) {
                c.misses++;
                an.eventMisses++;
                a.missLatenciesNs.add(e.getDuration().toNanos());
            } else if (lower.contains("invalidat")) {
                c.invalidations++;
                an.eventInvalidations++;
            } else if (lower.contains("ownership")) {
                c.ownershipTransfers++;
                a.ownershipTransfers++;
            } else {
                c.other++;
            }
            return;
        }
        // A per-period summary: its numeric fields count what happened in the period.
        long misses = 0;
        for (ValueDescriptor d : e.getFields()) {
            if (!Events.isNumber(d) || d.getName().equals("node")) {
                continue;
            }
            String f = d.getName().toLowerCase(Locale.ROOT);
            long v = Events.amount(e, d.getName());
            if (Events.isBytes(d)) {
                an.bytes += v;
            } else if (f.contains("miss")) {
                misses += v;
            } else if (f.contains("invalidat")) {
                an.invalidations += v;
            } else if (f.equals("hits") || f.endsWith("hits")) {
                an.hits += v;
            }
        }
        an.misses += misses;
    }

    private void addOther(RecordedEvent e, String name, int fileNode) {
        String key = "";
        for (String f : KEY_FIELDS) {
            if (e.hasField(f)) {
                key = Events.str(e, f);
                break;
            }
        }
        OtherStats s = other.computeIfAbsent(Events.shortName(name) + (key.isEmpty() ? "" : " " + key),
            k -> new OtherStats());
        s.count++;
        long d = e.getDuration().toNanos();
        s.totalDurationNs += d;
        s.maxDurationNs = Math.max(s.maxDurationNs, d);
        for (ValueDescriptor v : e.getFields()) {
            if (Events.isNumber(v) && Events.isBytes(v)) {
                s.bytes += Events.amount(e, v.getName());
            }
        }
        int node = or(Events.node(e, "node"), fileNode);
        s.nodes.add(node);
        totals(node).events++;
    }

    // ---------------------------------------------------------------- accessors

    public Path runDir() { return runDir; }
    /** File names of the recordings read. */
    public List<String> recordings() { return recordings; }
    /** Missing or unreadable recordings. */
    public List<String> problems() { return problems; }
    /** Remote calls: object → method → stats, sorted by name. */
    public Map<String, Map<String, CallStats>> calls() { return calls; }
    /** Replicated writes: cloud → method → stats (latency: call to local apply). */
    public Map<String, Map<String, CallStats>> writes() { return writes; }
    /** Reads restarted as writes: cloud → node → count. */
    public Map<String, Map<Integer, Long>> restarts() { return restarts; }
    /** Cloud → its root class (binary name), from the periodic summaries. */
    public Map<String, String> cloudClasses() { return cloudClasses; }
    /** How often the sequencer arrived at each node. */
    public Map<Integer, Long> sequencerArrivals() { return sequencerArrivals; }
    /** Sequencer migrations in time order. */
    public List<Migration> migrations() { return migrations; }
    public List<Lifecycle> lifecycle() { return lifecycle; }
    /** Tuple elements by name. */
    public Map<String, ElementStats> elements() { return elements; }
    /** Shared arrays by name. */
    public Map<String, ArrayStats> arrays() { return arrays; }
    /** Other Cumulus events by "EventName key". */
    public Map<String, OtherStats> other() { return other; }
    /** Per node totals. */
    public Map<Integer, NodeTotals> nodes() { return nodes; }
    /** Remote objects' locations over time, moves, calls by caller node and suggested moves. */
    public Placements placements() { return placements; }
    /** Node count from launch.properties, 0 when unknown. */
    public int expectedNodes() { return expectedNodes; }
    /** False when launch.properties says the run was made without {@code --profile}. */
    public boolean profiled() { return profiled; }
    /** The JDK events' figures (CPU samples, allocations, GC, parks) per node, by the recording's node. */
    public Map<Integer, JvmStats> jvm() { return jvm; }
    /** Remote calls joined to their serving ends. */
    public CallTimeline callTimeline() { return callTimeline; }

    /** Restarts of one cloud summed over nodes. */
    public long restarts(String cloud) {
        return restarts.getOrDefault(cloud, Map.of()).values().stream().mapToLong(Long::longValue).sum();
    }

    /** Whether any Cumulus event was read. */
    public boolean isEmpty() {
        return calls.isEmpty() && placements.objects().isEmpty() && writes.isEmpty() && lifecycle.isEmpty()
            && migrations.isEmpty() && elements.isEmpty() && arrays.isEmpty() && other.isEmpty() && restarts.isEmpty()
            && singleVm.isEmpty();
    }

    /** The single-VM mode's shared heap: fetches and write-backs per field, remote monitor waits, invalidations. */
    public SingleVmHeap singleVm() { return singleVm; }

    /** Earliest event start, ns since the epoch (0 when there are no events). */
    public long firstNs() { return firstNs == Long.MAX_VALUE ? 0 : firstNs; }
    /** Latest event end, ns since the epoch (0 when there are no events). */
    public long lastNs() { return lastNs == Long.MIN_VALUE ? 0 : lastNs; }

    /**
     * Where the sequencer was: (time ns, node) steps in time order, starting at the first migration's source at the
     * run's first event. Empty when it never moved.
     */
    public List<long[]> sequencerLocation() {
        List<long[]> steps = new ArrayList<>();
        if (migrations.isEmpty()) {
            return steps;
        }
        Migration first = migrations.getFirst();
        if (first.from() >= 0) {
            steps.add(new long[] {Math.min(firstNs(), first.timeNs()), first.from()});
        }
        for (Migration m : migrations) {
            steps.add(new long[] {m.timeNs(), m.to()});
        }
        return steps;
    }

    /** All nodes that appear anywhere, plus 0..expectedNodes-1. */
    public TreeSet<Integer> allNodes() {
        TreeSet<Integer> all = new TreeSet<>();
        for (int i = 0; i < expectedNodes; i++) {
            all.add(i);
        }
        nodes.keySet().stream().filter(n -> n >= 0).forEach(all::add);
        return all;
    }

    private static Properties launchProperties(Path runDir) {
        Path launch = runDir.resolve("launch.properties");
        Properties p = new Properties();
        if (!Files.isRegularFile(launch)) {
            return p;
        }
        try (Reader r = Files.newBufferedReader(launch, StandardCharsets.UTF_8)) {
            p.load(r);
        } catch (IOException | IllegalArgumentException e) {
            p.clear();
        }
        return p;
    }

    private static int expectedNodes(Properties launch) {
        try {
            return Integer.parseInt(launch.getProperty("cumulus.nodes", "0").trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
