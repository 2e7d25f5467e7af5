package dev.cumulus.profiler;

import jdk.jfr.DataAmount;
import jdk.jfr.Event;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Copies of the runtime's JFR event types (same names and fields), so the profiler's tests record real events
 * without depending on the runtime. Plus an event type the profiler does not know by name.
 */
public final class TestEvents {
    private TestEvents() {
    }

    @Name("dev.cumulus.RemoteCall") @StackTrace(false)
    public static final class RemoteCall extends Event {
        public int callerNode;
        public int targetNode;
        public long callId;
        public String object;
        public String method;
        @DataAmount public long requestBytes;
        @DataAmount public long replyBytes;
        public boolean async;
        public String outcome;
    }

    @Name("dev.cumulus.RemoteCallServed") @StackTrace(false)
    public static final class RemoteCallServed extends Event {
        public int callerNode;
        public int servingNode;
        public long callId;
        public String object;
        public String method;
        public boolean deferred;
        public String outcome;
    }

    @Name("dev.cumulus.BroadcastWrite") @StackTrace(false)
    public static final class BroadcastWrite extends Event {
        public int node;
        public String cloud;
        public String method;
        public long seq;
        @DataAmount public long bytes;
    }

    @Name("dev.cumulus.SequencerMigration") @StackTrace(false)
    public static final class SequencerMigration extends Event {
        public int fromNode;
        public int toNode;
        public long nextSeq;
        public int waiting;
        public String reason;
    }

    @Name("dev.cumulus.Migration") @StackTrace(false)
    public static final class Migration extends Event {
        public String object;
        public String kind;
        public int fromNode;
        public int toNode;
        @DataAmount public long stateBytes;
        @Timespan public long pauseNs;
        public int callsHeld;
        public String reason;
        public String outcome;
    }

    @Name("dev.cumulus.CloudSummary") @StackTrace(false)
    public static final class CloudSummary extends Event {
        public int node;
        public String cloud;
        public long writes;
        public long restarts;
    }

    @Name("dev.cumulus.NodeLifecycle") @StackTrace(false)
    public static final class NodeLifecycle extends Event {
        public int node;
        public String phase;
        public int subject;
        public String detail;
    }

    @Name("dev.cumulus.PastSetOperation") @StackTrace(false)
    public static final class PastSetOperation extends Event {
        public String element;
        public String operation;
        public int callerNode;
        public int homeNode;
        @DataAmount public long bytes;
        @Timespan public long blockedNs;
        public String outcome;
    }

    @Name("dev.cumulus.PastSetSummary") @StackTrace(false)
    public static final class PastSetSummary extends Event {
        public int node;
        public String element;
        public long moves;
        public long observes;
        public long remoteOperations;
        @Timespan public long blockedNs;
        public int waiting;
        public long first;
        public long last;
        public long distance;
        public long kept;
    }

    /** A shared-array event the profiler does not know by name: counted per partition because of its fields. */
    @Name("dev.cumulus.ArrayMiss") @StackTrace(false)
    public static final class ArrayMiss extends Event {
        public int node;
        public String array;
        public int partition;
        public int home;
        public String kind;
        public int hops;
        @DataAmount public long bytes;
    }

    @Name("dev.cumulus.ArrayInvalidation") @StackTrace(false)
    public static final class ArrayInvalidation extends Event {
        public int node;
        public String array;
        public int partition;
        public int sharers;
        @Timespan public long durationNs;
    }

    @Name("dev.cumulus.ArraySummary") @StackTrace(false)
    public static final class ArraySummary extends Event {
        public int node;
        public String array;
        public long hits;
        public long readMisses;
        public long writeMisses;
        @DataAmount public long bytesMoved;
        public long invalidations;
    }

    /** An event with neither array nor a known name: "other". */
    @Name("dev.cumulus.BarrierWait") @StackTrace(false)
    public static final class BarrierWait extends Event {
        public int node;
        public String barrier;
        public long generation;
        public String role;
    }

    /** A recording of every dev.cumulus.* test event type, started. */
    public static Recording start() {
        Recording r = new Recording();
        for (Class<? extends Event> c : List.of(RemoteCall.class, RemoteCallServed.class, Migration.class,
            BroadcastWrite.class, SequencerMigration.class, CloudSummary.class, NodeLifecycle.class,
            PastSetOperation.class, PastSetSummary.class, ArrayMiss.class, ArrayInvalidation.class, ArraySummary.class,
            BarrierWait.class, SingleVmFetch.class, SingleVmWriteBack.class, SingleVmLockWait.class,
            SingleVmInvalidations.class)) {
            r.enable(c).withoutStackTrace().withoutThreshold();
        }
        r.start();
        return r;
    }

    public static void dump(Recording r, Path file) throws IOException {
        r.stop();
        r.dump(file);
        r.close();
    }

    public static void call(int caller, int target, String object, String method, boolean async, long req,
                            long reply, String outcome) {
        RemoteCall e = new RemoteCall();
        e.begin();
        e.callerNode = caller;
        e.targetNode = target;
        e.object = object;
        e.method = method;
        e.async = async;
        e.requestBytes = req;
        e.replyBytes = reply;
        e.outcome = outcome;
        e.commit();
    }

    /** A remote object's migration, as the node it left records it. */
    public static void move(String object, String kind, int from, int to, long stateBytes, long pauseNs, int held,
                            String outcome) {
        Migration e = new Migration();
        e.begin();
        e.object = object;
        e.kind = kind;
        e.fromNode = from;
        e.toNode = to;
        e.stateBytes = stateBytes;
        e.pauseNs = pauseNs;
        e.callsHeld = held;
        e.reason = "requested";
        e.outcome = outcome;
        e.commit();
    }

    public static void write(int node, String cloud, String method, long seq, long bytes) {
        BroadcastWrite e = new BroadcastWrite();
        e.begin();
        e.node = node;
        e.cloud = cloud;
        e.method = method;
        e.seq = seq;
        e.bytes = bytes;
        e.commit();
    }

    public static void migrate(int from, int to, long nextSeq) {
        SequencerMigration e = new SequencerMigration();
        e.fromNode = from;
        e.toNode = to;
        e.nextSeq = nextSeq;
        e.reason = "node " + to + " broadcasts";
        e.commit();
    }

    public static void miss(int node, String array, int partition) {
        ArrayMiss e = new ArrayMiss();
        e.begin();
        e.node = node;
        e.array = array;
        e.partition = partition;
        e.home = 0;
        e.kind = "read";
        e.hops = 2;
        e.bytes = 256;
        e.commit();
    }

    @Name("dev.cumulus.SingleVmFetch") @StackTrace(false)
    public static final class SingleVmFetch extends Event {
        public int node;
        public int homeNode;
        public String className;
        public String field;
        public int entries;
    }

    @Name("dev.cumulus.SingleVmWriteBack") @StackTrace(false)
    public static final class SingleVmWriteBack extends Event {
        public int node;
        public int homeNode;
        public String className;
        public String fields;
        public int entries;
        public int callObjects;
    }

    @Name("dev.cumulus.SingleVmLockWait") @StackTrace(false)
    public static final class SingleVmLockWait extends Event {
        public int node;
        public int homeNode;
        public String className;
    }

    @Name("dev.cumulus.SingleVmInvalidations") @StackTrace(false)
    public static final class SingleVmInvalidations extends Event {
        public int node;
        public long invalidations;
    }
}
