package dev.cumulus.internal.array;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** The JFR events of shared arrays and barriers. Hits are never events: they are counted into {@link Summary}. */
public final class ArrayEvents {
    private ArrayEvents() {
    }

    /** A read or write miss as the node that missed saw it; the duration is the miss latency. */
    @Name(Miss.NAME)
    @Label("Shared Array Miss")
    @Category({"Cumulus", "Shared Arrays"})
    @Description("An access that had to fetch a copy or ownership of a partition through its home node")
    @StackTrace(false)
    public static final class Miss extends Event {
        public static final String NAME = "dev.cumulus.ArrayMiss";
        @Label("Node")
        public int node;
        @Label("Array")
        public String array;
        @Label("Partition")
        public int partition;
        @Label("Home Node")
        public int home;
        @Label("Kind")
        @Description("read or write")
        public String kind;
        @Label("Hops")
        @Description("Network transactions of the miss: 2 from the home, 4 with intervention forwarding or invalidations; 0 when another access on this node fetched it first")
        public int hops;
        @Label("Bytes")
        @Description("Partition data the miss brought to this node (0 when the grant carried none, e.g. a read copy upgraded to write)")
        @DataAmount
        public long bytes;
    }

    /** A write transaction on the home node that had to invalidate sharers. */
    @Name(Invalidation.NAME)
    @Label("Shared Array Invalidation")
    @Category({"Cumulus", "Shared Arrays"})
    @StackTrace(false)
    public static final class Invalidation extends Event {
        public static final String NAME = "dev.cumulus.ArrayInvalidation";
        @Label("Home Node")
        public int node;
        @Label("Array")
        public String array;
        @Label("Partition")
        public int partition;
        @Label("Sharers Invalidated")
        public int sharers;
        @Label("Invalidation Time")
        @Timespan
        public long durationNs;
    }

    /** Exclusive ownership of a partition moved (recorded by its home). */
    @Name(Ownership.NAME)
    @Label("Shared Array Ownership Transfer")
    @Category({"Cumulus", "Shared Arrays"})
    @StackTrace(false)
    public static final class Ownership extends Event {
        public static final String NAME = "dev.cumulus.ArrayOwnership";
        @Label("Home Node")
        public int node;
        @Label("Array")
        public String array;
        @Label("Partition")
        public int partition;
        @Label("From Node")
        @Description("-1 when the partition was shared")
        public int from;
        @Label("To Node")
        public int to;
    }

    /** One thread's wait at a barrier; the duration is the wait. */
    @Name(BarrierWait.NAME)
    @Label("Barrier Wait")
    @Category({"Cumulus", "Shared Arrays"})
    @StackTrace(false)
    public static final class BarrierWait extends Event {
        public static final String NAME = "dev.cumulus.BarrierWait";
        @Label("Node")
        public int node;
        @Label("Barrier")
        public String barrier;
        @Label("Generation")
        public long generation;
        @Label("Role")
        @Description("proxy (talked to the root for its node), local (waited for its node's proxy), central or node-local")
        public String role;
    }

    /** Once a second, per array that saw activity on this node. */
    @Name(Summary.NAME)
    @Label("Shared Array Summary")
    @Category({"Cumulus", "Shared Arrays"})
    @Period("1 s")
    @StackTrace(false)
    public static final class Summary extends Event {
        public static final String NAME = "dev.cumulus.ArraySummary";
        @Label("Node")
        public int node;
        @Label("Array")
        public String array;
        @Label("Hits")
        @Description("Accesses served by this node's copy (approximate under heavy contention)")
        public long hits;
        @Label("Read Misses")
        public long readMisses;
        @Label("Write Misses")
        public long writeMisses;
        @Label("Bytes Moved")
        @Description("Partition data this node sent to other nodes")
        @DataAmount
        public long bytesMoved;
        @Label("Invalidations")
        @Description("Copies this node's directories invalidated")
        public long invalidations;
    }
}
