package dev.cumulus.bench;

import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Watches the node processes of one {@code cumulus run} from the bench and tells the CPU time (user + system) they
 * used, from Linux's {@code /proc}. The nodes are the launcher's children whose command line names the program's main
 * class. Their exact total comes from the launcher's reaped children's times: once every node is reaped, what the
 * launcher's children used since the watch began is the nodes' CPU, the JDK's recording dumped at their exit included
 * (less the live profile's reader when it ended first: its own last reading is taken off). When the launcher ends
 * before that can be read (a short run), the total is the sum of each node's own last reading, taken every
 * {@value #POLL_MS} ms: short by at most that much of each node's end. The launcher's own CPU time (its JVM: the media
 * driver, the nodes' output, and under {@code --live} the live view's decoding, merging and printing) is told apart,
 * from the watch's start until every node was reaped, so a report the launcher writes after its nodes is not in it.
 * Per thread the figures are
 * each thread's last reading (threads that ended keep theirs), taken every {@value #THREAD_READ_MS} ms, so they miss
 * up to that much of each thread's end; they are summed by name, names that differ only in their last digits taken as one
 * ({@code "GC Thread#0"} and {@code "GC Thread#1"} are {@code "GC Thread#"}), over the nodes and per node (its id from
 * its command line's {@code -Dcumulus.node.id}).
 *
 * <p>One daemon thread polls; {@link #finish()} waits for its last reading. Never signals or otherwise touches the
 * processes it watches.
 */
public final class NodeCpuWatch {
    static final long POLL_MS = 20;
    static final int THREAD_EVERY_POLLS = 10;
    /** How often the per-thread times are read. */
    public static final long THREAD_READ_MS = POLL_MS * THREAD_EVERY_POLLS;
    /** The command line's main class: a child whose arguments hold it was forked and has not yet become its program. */
    private static final String LAUNCHER_MAIN = "dev.cumulus.cli.CumulusCli";
    /** The live profile's reader process ({@code cumulus run --live}), by its main class. */
    private static final String READER_MAIN = "dev.cumulus.profiler.live.RepositoryReaderMain";
    /** Child scans after every node was seen, for the reader the launcher starts right after them. */
    private static final int SCANS_AFTER_NODES = 5;

    /**
     * What one run's nodes used: {@code nodesNs} in all (-1 when not known: no {@code /proc}, or the launcher ended
     * before its nodes were reaped), the live reader's ({@code readerNs}, 0 without one), the launcher JVM's own until
     * its nodes were reaped ({@code launcherNs}, -1 when not known), and the nodes' threads' by name, summed over the
     * nodes ({@code threadsNs}).
     */
    public record NodeCpu(long nodesNs, long readerNs, long launcherNs, Map<String, Long> threadsNs) {
        static final NodeCpu UNKNOWN = new NodeCpu(-1, 0, -1, Map.of());

        public boolean known() {
            return nodesNs >= 0;
        }
    }

    private final ProcessHandle launcher;
    private final String main;
    private final int nodes;
    private final Thread thread;
    private volatile NodeCpu result = NodeCpu.UNKNOWN;

    private NodeCpuWatch(ProcessHandle launcher, String main, int nodes) {
        this.launcher = launcher;
        this.main = main;
        this.nodes = nodes;
        this.thread = Thread.ofPlatform().daemon().name("bench-node-cpu").unstarted(this::watch);
    }

    /** Starts watching {@code launcher}'s {@code nodes} node processes, which run {@code main}. */
    static NodeCpuWatch start(ProcessHandle launcher, String main, int nodes) {
        NodeCpuWatch w = new NodeCpuWatch(launcher, main, nodes);
        w.thread.start();
        return w;
    }

    /** Waits for the watch to end (the launcher ended, so it soon does) and returns what it saw. */
    NodeCpu finish() throws InterruptedException {
        thread.join();
        return result;
    }

    private void watch() {
        long[] first = ProcStat.times(launcher.pid());
        if (first == null) {
            return;
        }
        long baseline = first[1];
        long launcherBaseline = first[0];
        Set<Long> nodePids = new LinkedHashSet<>();
        Map<Long, Map<Long, ProcStat.ThreadTime>> threads = new HashMap<>(); // by pid and thread id, kept after it ends
        Map<Long, Long> nodeLastNs = new HashMap<>(); // each node's own CPU at its last reading
        long reader = -1;
        long readerNs = 0;
        int scansLeft = SCANS_AFTER_NODES;
        for (int poll = 0; ; poll++) {
            boolean everyThreadPoll = poll % THREAD_EVERY_POLLS == 0;
            if (scansLeft > 0 && (everyThreadPoll || nodePids.size() < nodes)) {
                for (ProcessHandle child : launcher.children().toList()) {
                    List<String> args = child.info().arguments().map(Arrays::asList).orElse(List.of());
                    if (args.contains(LAUNCHER_MAIN)) {
                        continue; // forked, not yet the program it runs: it still has the launcher's command line
                    }
                    if (args.contains(READER_MAIN)) {
                        reader = child.pid();
                        nodePids.remove(reader);
                    } else if (args.contains(main)) {
                        nodePids.add(child.pid());
                    }
                }
                if (nodePids.size() >= nodes) {
                    scansLeft--;
                }
            }
            boolean anyAlive = false;
            for (long pid : nodePids) {
                if (ProcStat.exists(pid)) {
                    anyAlive = true;
                    long[] own = ProcStat.times(pid);
                    if (own != null) {
                        nodeLastNs.put(pid, own[0]);
                    }
                    if (everyThreadPoll) {
                        threads.computeIfAbsent(pid, p -> new HashMap<>()).putAll(ProcStat.threads(pid));
                    }
                }
            }
            if (reader >= 0 && everyThreadPoll) {
                long[] r = ProcStat.times(reader);
                if (r != null) {
                    readerNs = r[0];
                }
            }
            if (nodePids.size() >= nodes && !anyAlive) {
                long[] now = ProcStat.times(launcher.pid());
                long total;
                long launcherNs = -1;
                if (now != null) {
                    launcherNs = now[0] - launcherBaseline;
                    boolean readerReaped = reader >= 0 && !ProcStat.exists(reader);
                    total = now[1] - baseline - (readerReaped ? readerNs : 0);
                } else { // the launcher ended too: the nodes' own last readings
                    total = nodeLastNs.values().stream().mapToLong(Long::longValue).sum();
                }
                Map<String, Long> byName = new TreeMap<>();
                threads.values().forEach(ts -> sumByName(ts.values(), byName));
                result = new NodeCpu(Math.max(0, total), readerNs, launcherNs, Map.copyOf(byName));
                return;
            }
            if (!launcher.isAlive()) {
                return;
            }
            LockSupport.parkNanos(POLL_MS * 1_000_000);
        }
    }

    /** Adds {@code threads}' times into {@code into} by name, names that differ only in their last digits as one. */
    private static Map<String, Long> sumByName(Iterable<ProcStat.ThreadTime> threads, Map<String, Long> into) {
        threads.forEach(t -> into.merge(t.name().replaceAll("[0-9]+$", ""), t.cpuNs(), Long::sum));
        return into;
    }
}
