package dev.cumulus.profiler.channel;

import java.util.List;
import java.util.Map;

/**
 * The profile of a finished run, from its nodes' recordings ({@code cumulus profile --json RUN_DIR}). Latencies are in
 * microseconds (nearest rank, to within 1 %), durations in the unit their name says, times in ms since the epoch,
 * {@code bytes} as the events account them; node lists are sorted node ids.
 *
 * @param type        always {@value #TYPE}
 * @param version     {@link ProfileRecord#VERSION}
 * @param runDir      the run directory read
 * @param startMs     the earliest event's start (0 without events)
 * @param endMs       the latest event's end (0 without events)
 * @param recordings  file names of the recordings read
 * @param problems    missing or unreadable recordings, one sentence each
 * @param remote      remote calls by object and method (a call that reached a forwarding address is not counted here:
 *                    see {@link Placement#forwarded})
 * @param placements  per remote object: where it lived over time, its moves and its calls by caller node
 * @param suggestions moves the calls suggest: an object one node calls most while it lives on another
 * @param clouds      replicated writes by cloud
 * @param sequencer   where the total order's sequencer went
 * @param elements    tuple-space elements
 * @param arrays      shared arrays
 * @param other       other Cumulus events by event and key
 * @param nodes       per-node totals
 * @param lifecycle   lifecycle changes in time order
 * @param objects     the program's objects with the figures the editor shows, over the whole run, busiest first
 * @param internal    the runtime's own objects ({@code cumulus.*} names, its array and tuple-space services), apart
 * @param singleVm    the single-VM mode's shared heap ({@code cumulus run --single-vm}): per class and field, fetches
 *                    and write-backs; absent (null) when the run recorded none
 */
public record ProfileReport(String type, int version, String runDir, long startMs, long endMs,
                            List<String> recordings, List<String> problems, List<RemoteMethod> remote,
                            List<Placement> placements, List<Suggestion> suggestions, List<Cloud> clouds, Sequencer sequencer, List<Element> elements, List<Array> arrays,
                            List<Other> other, List<Node> nodes, List<Lifecycle> lifecycle,
                            List<ObjectFigures> objects, List<ObjectFigures> internal, SingleVm singleVm)
    implements ProfileRecord {
    public static final String TYPE = "report";

    /**
     * One method of one remote object.
     *
     * @param async   calls made asynchronously
     * @param failed  calls whose outcome was not ok
     * @param p50Us   median latency, send to reply (the caller's view)
     * @param callers calling nodes
     * @param targets nodes that served the calls
     * @param internal the object is the runtime's own (the name directory, the factory, a capability service), not
     *                 the program's
     */
    public record RemoteMethod(String object, String method, long calls, long async, long failed, double p50Us,
                               double p99Us, long requestBytes, long replyBytes, List<Integer> callers,
                               List<Integer> targets, boolean internal) {
    }

    /**
     * One remote object's placement over the run.
     *
     * @param node      where it lived at the run's end (-1 when unknown)
     * @param calls     calls made to it (that ran), from every node
     * @param forwarded calls that reached a forwarding address first and were sent on by the caller
     * @param location  where it lived, from the run's start to its end, in time order
     * @param moves     every migration of it (and attempt that left it where it was) in time order
     * @param callers   calls by caller node, sorted by node
     */
    public record Placement(String object, int node, long calls, long forwarded, List<Stay> location,
                            List<Move> moves, List<Caller> callers) {
    }

    /**
     * The object lived on {@code node} during an interval.
     *
     * @param fromMs from (the run's start for the first)
     * @param toMs   to (the run's end for the last)
     */
    public record Stay(int node, long fromMs, long toMs) {
    }

    /**
     * One migration of a remote object, as the node it left recorded it.
     *
     * @param tMs        when it ended: from then on the object served on {@code to}
     * @param kind       IDLE, DELAYED or SAFE_POINT
     * @param stateBytes the object's state as sent
     * @param pauseUs    how long its calls were held
     * @param callsHeld  calls that arrived during the move and were sent on to the new node
     * @param reason     why: requested, or the rebalancer's reason
     * @param outcome    moved, or why it stayed
     */
    public record Move(long tMs, String kind, int from, int to, long stateBytes, double pauseUs, long callsHeld,
                       String reason, String outcome) {
    }

    /**
     * Calls one node made to one remote object.
     *
     * @param calls        calls that ran
     * @param forwarded    calls that reached a forwarding address first
     * @param sharePercent this node's share of the object's calls that ran
     */
    public record Caller(int node, long calls, long forwarded, double sharePercent) {
    }

    /**
     * A suggested move: node {@code toNode} makes at least the profiler's threshold share of the object's calls over
     * the run, and the object lives on {@code node} at the end.
     *
     * @param sharePercent {@code toNode}'s share of the calls
     * @param callerCalls  the calls {@code toNode} made
     * @param calls        all calls of the object
     * @param code         the call that makes the move ({@code Remote.migrate(name, toNode, Migration.DELAYED)})
     * @param message      the suggestion as one sentence
     */
    public record Suggestion(String object, int node, int toNode, double sharePercent, long callerCalls, long calls,
                             String code, String message) {
    }

    /**
     * One cloud (replicated object).
     *
     * @param restarts reads restarted as writes, summed over nodes
     * @param bytes    argument bytes of the writes
     * @param writers  nodes that wrote
     */
    public record Cloud(String cloud, long writes, long restarts, long bytes, List<Integer> writers,
                        List<CloudMethod> methods) {
    }

    /**
     * One write method of a cloud.
     *
     * @param p50Us median time from the call to the local apply
     */
    public record CloudMethod(String method, long writes, double p50Us, double p99Us, long bytes,
                              List<Integer> writers) {
    }

    /**
     * The sequencer.
     *
     * @param migrations how often it moved
     * @param arrivals   node id (as a string) to arrivals there
     * @param timeline   its moves in time order
     */
    public record Sequencer(long migrations, Map<String, Long> arrivals, List<Migration> timeline) {
    }

    /**
     * One move of the sequencer.
     *
     * @param tMs     when it arrived
     * @param nextSeq the next sequence number it hands out
     */
    public record Migration(long tMs, int from, int to, long nextSeq) {
    }

    /**
     * One tuple-space element.
     *
     * @param remoteOperations moves and observes from other nodes than its home
     * @param blockedMs        time operations waited at the home
     * @param remoteP99Us      99th percentile latency of remote operations
     * @param errors           operations that failed
     * @param maxDistance      the largest distance between producer and consumer seen
     * @param homes            nodes that were its home
     * @param callers          nodes that operated on it remotely
     */
    public record Element(String element, long moves, long observes, long remoteOperations, double blockedMs,
                          double remoteP99Us, long bytes, long errors, long maxDistance, List<Integer> homes,
                          List<Integer> callers) {
    }

    /**
     * One shared array.
     *
     * @param p50MissUs  median miss latency
     * @param nodes      per node
     * @param partitions per partition and node (from partition events)
     */
    public record Array(String array, long hits, long misses, long invalidations, long bytes, long ownershipTransfers,
                        double p50MissUs, double p99MissUs, List<ArrayNode> nodes, List<Partition> partitions) {
    }

    /** One array on one node. */
    public record ArrayNode(int node, long hits, long misses, long invalidations, long bytes) {
    }

    /** One partition of an array on one node. */
    public record Partition(int partition, int node, long misses, long invalidations, long ownershipTransfers,
                            long bytes) {
    }

    /**
     * Another Cumulus event, by event name and key field ({@code BarrierWait stage}).
     *
     * @param totalMs summed duration
     * @param maxUs   longest duration
     */
    public record Other(String event, long count, double totalMs, double maxUs, long bytes, List<Integer> nodes) {
    }

    /**
     * What one node did (by the node the events name).
     *
     * @param tupleOperations remote tuple operations it made
     * @param bytes           bytes it put on the wire by the events' accounts
     */
    public record Node(int node, long events, long remoteCalls, long failedCalls, long writes, long sequencerArrivals,
                       long tupleOperations, long arrayMisses, long bytes) {
    }

    /**
     * A lifecycle change.
     *
     * @param tMs     when
     * @param subject the node it is about (may differ from the node that recorded it)
     */
    public record Lifecycle(long tMs, int node, String phase, int subject, String detail) {
    }

    /**
     * The single-VM mode's shared heap over the run (docs/design/SINGLEVM.md): which fields move between the nodes.
     *
     * @param fields        per class and field, sorted by class then field
     * @param locks         per class of the locked objects: waits for monitors homed on another node
     * @param invalidations per node: its cache's invalidations (one per acquire that invalidated), sorted by node
     */
    public record SingleVm(List<HeapField> fields, List<HeapLock> locks, List<HeapInvalidations> invalidations) {
    }

    /**
     * One field of one class in the shared heap. The class is the object's own (binary name; an array type's
     * descriptor, {@code [J}, whose elements are field {@code []}); a field it inherits is named under it too.
     *
     * @param className      the object's class (binary name), or the class whose statics these are
     * @param field          the field's name ({@code []}: an array's elements)
     * @param fetches        reads that found the node's copy stale and fetched the object (an array's block) from its
     *                       home, attributed to the field read
     * @param fetchMs        those fetches' round trips, summed
     * @param fetchedEntries fields or elements those fetches brought
     * @param writeBacks     releases that sent this field to its home
     * @param writeBackMs    those write-backs' calls, summed (a write-back that carried several fields counts for each)
     * @param nodes          nodes that fetched or wrote back
     * @param homes          the home nodes of the objects
     */
    public record HeapField(String className, String field, long fetches, double fetchMs, long fetchedEntries,
                            long writeBacks, double writeBackMs, List<Integer> nodes, List<Integer> homes) {
    }

    /**
     * Waits for monitors homed on another node, on the objects of one class.
     *
     * @param waitMs    summed
     * @param longestUs the longest wait
     * @param nodes     nodes that waited
     */
    public record HeapLock(String className, long waits, double waitMs, double longestUs, List<Integer> nodes) {
    }

    /** One node's cache invalidations over the run. */
    public record HeapInvalidations(int node, long invalidations) {
    }
}
