package dev.cumulus.internal.node;

import dev.cumulus.Barrier;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.transport.IdleStrategies;

import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Everything a node is configured with, built and checked once before the node starts; immutable. Launched nodes
 * get their settings from the launcher ({@code cumulus run} flags, written as {@code -Dcumulus.*} properties on each
 * node's command line); {@code LocalCluster} nodes from the same properties of their JVM. The user settings, their
 * defaults and what they mean are listed in {@code docs/CLI.md} ("Node settings"):
 *
 * <table>
 *   <caption>user settings</caption>
 *   <tr><th>property</th><th>meaning</th></tr>
 *   <tr><td>{@code cumulus.sequencer}</td><td>{@code migrating} (default) or {@code static}</td></tr>
 *   <tr><td>{@code cumulus.call.timeout.ms}</td><td>timeout of remote calls; 0 (default): as long as the target lives</td></tr>
 *   <tr><td>{@code cumulus.join.timeout.ms}</td><td>how long a node waits for the others to join (60 s)</td></tr>
 *   <tr><td>{@code cumulus.lookup.wait.ms}</td><td>how long {@code lookup} waits for a name to be exported (10 s)</td></tr>
 *   <tr><td>{@code cumulus.barrier.timeout.ms}</td><td>timeout of named barriers ({@link Barrier#DEFAULT_TIMEOUT})</td></tr>
 *   <tr><td>{@code cumulus.rebalance.ms}</td><td>every remote object follows its calls, looked at in windows this
 *       long ({@code cumulus run --rebalance}); 0 (default): only objects placed by {@code Remote.autoPlace}</td></tr>
 * </table>
 *
 * @param nodeId              this node, 0..size-1
 * @param size                nodes in the cluster
 * @param heartbeatIntervalMs how often the node tells its peers it is alive
 * @param heartbeatTimeoutMs  the failure detector's ceiling: a peer silent this long is suspected at the latest
 *                            ({@link #liveness()} derives every timer of failure detection from it)
 * @param joinTimeoutMs       how long the node waits for every peer to be heard from
 * @param idleStrategy        the idle strategy of the node's threads ({@link IdleStrategies})
 * @param callTimeoutNs       timeout of remote calls through new proxies; 0 waits as long as the target lives
 * @param lookupWait          how long {@code lookup} waits for a name
 * @param sequencer           how the replicated objects' sequencer moves
 * @param barrierTimeout      timeout of named barriers
 * @param cores               cores of the host, shared by the nodes on it
 * @param nodesOnHost         nodes of the cluster on this host
 * @param rebalanceWindow     every remote object follows its calls, looked at in windows this long; zero: off
 */
public record NodeSettings(int nodeId, int size, long heartbeatIntervalMs, long heartbeatTimeoutMs, long joinTimeoutMs,
                           String idleStrategy, long callTimeoutNs, Duration lookupWait, Sequencer sequencer,
                           Duration barrierTimeout, int cores, int nodesOnHost, Duration rebalanceWindow) {
    public static final String PREFIX = "cumulus.";
    public static final long DEFAULT_JOIN_TIMEOUT_MS = 60_000;
    public static final long DEFAULT_HEARTBEAT_INTERVAL_MS = 200;
    public static final long DEFAULT_HEARTBEAT_TIMEOUT_MS = 5_000;
    public static final String DEFAULT_IDLE_STRATEGY = "backoff";
    public static final long DEFAULT_LOOKUP_WAIT_MS = 10_000;

    public NodeSettings {
        if (size < 1 || nodeId < 0 || nodeId >= size) {
            throw new CumulusException("node " + nodeId + " is outside 0.." + (size - 1));
        }
        if (heartbeatIntervalMs <= 0 || heartbeatTimeoutMs <= heartbeatIntervalMs) {
            throw new CumulusException("the heartbeat timeout (" + heartbeatTimeoutMs + " ms) must exceed the interval ("
                + heartbeatIntervalMs + " ms), both positive");
        }
        positive(joinTimeoutMs, "join.timeout.ms");
        if (callTimeoutNs < 0) {
            throw new CumulusException("the call timeout must be 0 (none) or positive, not " + callTimeoutNs + " ns");
        }
        positive(lookupWait.toMillis(), "lookup.wait.ms");
        positive(barrierTimeout.toMillis(), "barrier.timeout.ms");
        if (cores < 1 || nodesOnHost < 1 || nodesOnHost > size) {
            throw new CumulusException("a host with " + cores + " cores and " + nodesOnHost + " of " + size
                + " nodes makes no sense");
        }
        IdleStrategies.parse(idleStrategy); // throws with the accepted forms
    }

    /**
     * The settings of node {@code nodeId} of {@code size}, all of them on this host, with the launch's heartbeat and
     * idle strategy and the user settings in {@code properties} (absent ones take their defaults).
     */
    public static NodeSettings of(int nodeId, int size, long heartbeatIntervalMs, long heartbeatTimeoutMs,
                                  String idleStrategy, int nodesOnHost, Properties properties) {
        refuseOldNames(properties);
        return new NodeSettings(nodeId, size, heartbeatIntervalMs, heartbeatTimeoutMs,
            millis(properties, "join.timeout.ms", DEFAULT_JOIN_TIMEOUT_MS), idleStrategy,
            TimeUnit.MILLISECONDS.toNanos(millis(properties, "call.timeout.ms", 0)),
            Duration.ofMillis(millis(properties, "lookup.wait.ms", DEFAULT_LOOKUP_WAIT_MS)), sequencer(properties),
            Duration.ofMillis(millis(properties, "barrier.timeout.ms", Barrier.DEFAULT_TIMEOUT.toMillis())),
            Runtime.getRuntime().availableProcessors(), nodesOnHost,
            Duration.ofMillis(millis(properties, "rebalance.ms", 0)));
    }

    /** How the node's threads poll, spin and sleep, derived from these settings. */
    public Scheduling scheduling() {
        String spec = idleStrategy == null ? IdleStrategies.DEFAULT : idleStrategy.trim().toLowerCase(Locale.ROOT);
        return new Scheduling(spec, nodesOnHost > cores ? Scheduling.CROWDED_SPINS : Scheduling.SPINS,
            spec.startsWith("sleep") ? 0 : Scheduling.CALLER_POLL_NS, spec.equals(IdleStrategies.DEFAULT));
    }

    /**
     * Where the replicated objects' sequencer lives: it moves to the node that writes ({@code MIGRATING}), or stays on
     * node 0 ({@code STATIC}) (docs/design/SEQUENCER.md).
     */
    public enum Sequencer { MIGRATING, STATIC }

    /** How the node finds failed peers, derived from the heartbeat interval and timeout. */
    public Liveness liveness() {
        long intervalNs = TimeUnit.MILLISECONDS.toNanos(heartbeatIntervalMs);
        long ceilingNs = TimeUnit.MILLISECONDS.toNanos(heartbeatTimeoutMs);
        long floorNs = Math.min(ceilingNs, Math.max(ceilingNs / 2, Liveness.FLOOR_INTERVALS * intervalNs));
        return new Liveness(intervalNs, floorNs, ceilingNs, ceilingNs / 2, Liveness.PHI_THRESHOLD, intervalNs / 2,
            2 * ceilingNs);
    }

    /**
     * How the node finds failed peers ({@code docs/design/THREADING.md}, "Failure detection"). A peer proves it lives
     * by heartbeats whose progress counter moved; a phi accrual detector over their inter-arrival times suspects it
     * after {@code suspectFloorNs} to {@code suspectCeilingNs} of silence, more the less regular its beats have been;
     * a suspect is probed and declared failed only if no proof of life comes within {@code verifyNs}. So a peer silent
     * for less than the heartbeat timeout is never declared failed, and a dead or wedged one is within 1.5 times it.
     *
     * @param heartbeatIntervalNs how often the heartbeat thread beats
     * @param suspectFloorNs      the least silence suspected: half the timeout, and at least
     *                            {@link #FLOOR_INTERVALS} intervals (a healthy node slowed threefold beats every three)
     * @param suspectCeilingNs    the silence always suspected: the heartbeat timeout
     * @param verifyNs            how long a suspect has to answer a probe (or beat) before it is declared failed
     * @param phiThreshold        phi at which the detector suspects
     * @param minStdNs            the least standard deviation of inter-arrival times the detector assumes
     * @param stuckSendNs         how long a peer may take no control message or ordered broadcast before it is
     *                            declared failed: longer than the detector needs, which names a dead peer first
     */
    public record Liveness(long heartbeatIntervalNs, long suspectFloorNs, long suspectCeilingNs, long verifyNs,
                           double phiThreshold, long minStdNs, long stuckSendNs) {
        static final long FLOOR_INTERVALS = 4;
        static final double PHI_THRESHOLD = 8;
    }

    /**
     * How the node's threads poll, spin and sleep.
     *
     * @param idleStrategy     the idle strategy's spec
     * @param idleSpins        polls an idle main thread spins before it yields: {@link #SPINS} when every node of the
     *                         host has a core, else {@link #CROWDED_SPINS} (a spinning node there holds a core that a
     *                         node with work needs)
     * @param callerPollNs     how long a thread polls for what it waits for before it blocks; 0 with a {@code sleep}
     *                         strategy, where CPU use matters more than latency
     * @param sleepsOnDoorbell whether the idle main thread sleeps on the host's doorbell (the default strategy)
     *                         instead of the strategy's parks
     */
    public record Scheduling(String idleStrategy, int idleSpins, long callerPollNs, boolean sleepsOnDoorbell) {
        static final int SPINS = 200;
        static final int CROWDED_SPINS = 10;
        static final long CALLER_POLL_NS = TimeUnit.MICROSECONDS.toNanos(50);
        /** How long an idle main thread stays awake (spinning, then yielding) before it sleeps on its doorbell. */
        static final long AWAKE_NS = TimeUnit.MICROSECONDS.toNanos(200);
        /** The longest sleep on the doorbell, so timers (heartbeats, failure detection) still run. */
        static final long SLEEP_NS = TimeUnit.MILLISECONDS.toNanos(1);
        /**
         * The main thread's sleep while a thread of its node waits for asynchronous answers with more of them due (a
         * nap): such a thread keeps the bell as it stops polling, so answers that come before it polls again do not
         * ring, and a message that comes while nobody polls waits at most this long.
         */
        static final long NAP_NS = TimeUnit.MICROSECONDS.toNanos(200);
    }

    private static void positive(long value, String key) {
        if (value <= 0) {
            throw new CumulusException(PREFIX + key + " must be positive, not " + value);
        }
    }

    private static long millis(Properties properties, String key, long dflt) {
        String v = properties.getProperty(PREFIX + key);
        if (v == null || v.isBlank()) {
            return dflt;
        }
        long ms;
        try {
            ms = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new CumulusException(PREFIX + key + "=" + v + " is not a number of milliseconds");
        }
        if (ms < 0) {
            throw new CumulusException(PREFIX + key + "=" + v + " is negative; give a number of milliseconds");
        }
        return ms;
    }

    /** Settings whose names changed: a value under the old name is refused rather than ignored. */
    private static void refuseOldNames(Properties properties) {
        if (properties.getProperty(PREFIX + "barrier.timeoutMs") != null) {
            throw new CumulusException(PREFIX + "barrier.timeoutMs is now " + PREFIX + "barrier.timeout.ms; rename it");
        }
    }

    private static Sequencer sequencer(Properties properties) {
        String v = properties.getProperty(PREFIX + "sequencer", "migrating").trim();
        try {
            return Sequencer.valueOf(v.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new CumulusException(PREFIX + "sequencer=" + v + " is not known; use migrating or static");
        }
    }
}
