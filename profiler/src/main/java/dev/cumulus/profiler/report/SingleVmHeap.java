package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Events;
import jdk.jfr.consumer.RecordedEvent;

import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The single-VM mode's shared heap in a run (docs/design/SINGLEVM.md): per class and field, the fetches a stale copy
 * cost ({@code dev.cumulus.SingleVmFetch}: the field whose read missed) and the write-backs that carried the field
 * ({@code dev.cumulus.SingleVmWriteBack}); per class, the waits for monitors homed on another node
 * ({@code dev.cumulus.SingleVmLockWait}); per node, its cache's invalidations ({@code dev.cumulus.SingleVmInvalidations},
 * cumulative counters: the largest value per node counts). The per-field view is the "false sharing" view a profiler of
 * one JVM cannot give: which fields move between the nodes, and how often.
 */
public final class SingleVmHeap {
    public static final String FETCH = "dev.cumulus.SingleVmFetch";
    public static final String WRITE_BACK = "dev.cumulus.SingleVmWriteBack";
    public static final String LOCK_WAIT = "dev.cumulus.SingleVmLockWait";
    public static final String INVALIDATIONS = "dev.cumulus.SingleVmInvalidations";

    /** One field of one class (an array type's elements: field {@code []}). */
    public static final class FieldStats {
        long fetches;
        long fetchNs;
        long fetchedEntries;
        long writeBacks;
        long writeBackNs;
        final TreeSet<Integer> nodes = new TreeSet<>();
        final TreeSet<Integer> homes = new TreeSet<>();

        public long fetches() { return fetches; }
        public long fetchNs() { return fetchNs; }
        public long fetchedEntries() { return fetchedEntries; }
        public long writeBacks() { return writeBacks; }
        /** The write-back calls' time, each call's shared equally among the objects it carried. */
        public long writeBackNs() { return writeBackNs; }
        /** The nodes that fetched or wrote back. */
        public TreeSet<Integer> nodes() { return nodes; }
        public TreeSet<Integer> homes() { return homes; }
    }

    /** Remote monitor waits on the objects of one class. */
    public static final class LockStats {
        long waits;
        long waitNs;
        long longestNs;
        final TreeSet<Integer> nodes = new TreeSet<>();

        public long waits() { return waits; }
        public long waitNs() { return waitNs; }
        public long longestNs() { return longestNs; }
        public TreeSet<Integer> nodes() { return nodes; }
    }

    private final Map<String, Map<String, FieldStats>> fields = new TreeMap<>();
    private final Map<String, LockStats> locks = new TreeMap<>();
    private final Map<Integer, Long> invalidations = new TreeMap<>();

    static boolean handles(String eventName) {
        return eventName.equals(FETCH) || eventName.equals(WRITE_BACK) || eventName.equals(LOCK_WAIT)
            || eventName.equals(INVALIDATIONS);
    }

    /** Adds one of the four events, recorded by node {@code fileNode}. */
    void add(RecordedEvent e, String name, int fileNode) {
        int node = Events.node(e, "node") >= 0 ? Events.node(e, "node") : fileNode;
        long ns = e.getDuration().toNanos();
        switch (name) {
            case FETCH -> {
                FieldStats s = field(Events.str(e, "className"), Events.str(e, "field"));
                s.fetches++;
                s.fetchNs += ns;
                s.fetchedEntries += Events.amount(e, "entries");
                s.nodes.add(node);
                s.homes.add(Events.node(e, "homeNode"));
            }
            case WRITE_BACK -> {
                // one call carries every object of its home, each with an event of the call's duration: a share each
                long share = ns / Math.max(1, Events.amount(e, "callObjects"));
                for (String f : Events.str(e, "fields").split(",")) {
                    FieldStats s = field(Events.str(e, "className"), f);
                    s.writeBacks++;
                    s.writeBackNs += share;
                    s.nodes.add(node);
                    s.homes.add(Events.node(e, "homeNode"));
                }
            }
            case LOCK_WAIT -> {
                LockStats s = locks.computeIfAbsent(Events.str(e, "className"), k -> new LockStats());
                s.waits++;
                s.waitNs += ns;
                s.longestNs = Math.max(s.longestNs, ns);
                s.nodes.add(node);
            }
            case INVALIDATIONS -> invalidations.merge(node, Events.amount(e, "invalidations"), Math::max);
            default -> throw new IllegalArgumentException("not a single-VM event: " + name);
        }
    }

    private FieldStats field(String className, String field) {
        return fields.computeIfAbsent(className, k -> new TreeMap<>()).computeIfAbsent(field, k -> new FieldStats());
    }

    /** Class name to field name to its figures. */
    public Map<String, Map<String, FieldStats>> fields() { return fields; }
    /** Class name to remote monitor waits on its objects. */
    public Map<String, LockStats> locks() { return locks; }
    /** Node to its cache's invalidations over the run. */
    public Map<Integer, Long> invalidations() { return invalidations; }

    public boolean isEmpty() {
        return fields.isEmpty() && locks.isEmpty() && invalidations.isEmpty();
    }
}
