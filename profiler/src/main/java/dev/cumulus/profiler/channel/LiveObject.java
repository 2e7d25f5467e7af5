package dev.cumulus.profiler.channel;

/**
 * One object's figures in a {@link LiveWindow}; {@link #kind()} tells which record it is. Rates are per second of the
 * window, latencies in microseconds (nearest rank, to within 1 %), {@code bytes} what the node sent for the object.
 */
public sealed interface LiveObject permits LiveObject.Cloud, LiveObject.Remote, LiveObject.Tuple, LiveObject.Array,
    LiveObject.Other {
    /** {@code cloud}, {@code remote}, {@code tuple}, {@code array} or {@code other}. */
    String kind();

    /** The object's name (cut at 200 characters). */
    String name();

    /**
     * A replicated object (cloud) this node wrote.
     *
     * @param className    the cloud's root class (binary name), absent until its periodic summary was seen
     * @param writes       writes issued
     * @param p50WriteUs   median time from the call to the local apply
     * @param p99WriteUs   99th percentile of the same
     * @param migrations   sequencer arrivals at this node in the window (one sequencer serves all clouds)
     * @param restarts     reads restarted as writes, cumulative; present only when it changed
     */
    record Cloud(String kind, String name, String className, long writes, double writesPerSec, double p50WriteUs,
                 double p99WriteUs, long bytes, long migrations, Long restarts) implements LiveObject {
        public static final String KIND = "cloud";
    }

    /**
     * A remote object this node called.
     *
     * @param p50Us  median call latency (send to reply, the caller's view)
     * @param failed calls whose outcome was not ok
     */
    record Remote(String kind, String name, long calls, double callsPerSec, double p50Us, double p99Us, long failed,
                  long bytes) implements LiveObject {
        public static final String KIND = "remote";
    }

    /**
     * A tuple-space element (PastSet).
     *
     * @param remoteOperations remote moves and observes this node made
     * @param moves            moves at this node as the element's home
     * @param observes         observes at this node as the element's home
     * @param blockedMs        time operations waited
     * @param remoteP99Us      99th percentile latency of the remote operations
     */
    record Tuple(String kind, String name, long remoteOperations, long moves, long observes, double blockedMs,
                 double remoteP99Us, long bytes) implements LiveObject {
        public static final String KIND = "tuple";
    }

    /**
     * A shared array.
     *
     * @param misses        coherence misses at this node
     * @param p99MissUs     99th percentile miss latency
     * @param invalidations invalidations
     * @param hits          cache hits (from periodic summaries)
     */
    record Array(String kind, String name, long misses, double missesPerSec, double p99MissUs, long invalidations,
                 long hits, long bytes) implements LiveObject {
        public static final String KIND = "array";
    }

    /**
     * Any other Cumulus event, by event and key ({@code BarrierWait stage}).
     *
     * @param count events in the window
     */
    record Other(String kind, String name, long count) implements LiveObject {
        public static final String KIND = "other";
    }
}
