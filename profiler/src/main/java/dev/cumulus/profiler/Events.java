package dev.cumulus.profiler;

import jdk.jfr.ValueDescriptor;
import jdk.jfr.consumer.RecordedEvent;

import java.time.Instant;
import java.util.List;

/**
 * Names of the runtime's JFR events and lenient access to their fields: a missing field reads as {@code ""}, -1 (node
 * ids) or 0 (amounts), so a recording from an older or newer runtime never breaks a report.
 */
public final class Events {
    public static final String PREFIX = "dev.cumulus.";
    public static final String REMOTE_CALL = "dev.cumulus.RemoteCall";
    /** A remote call as the node that ran it saw it; joined to its {@link #REMOTE_CALL} by caller node and call id. */
    public static final String REMOTE_CALL_SERVED = "dev.cumulus.RemoteCallServed";
    public static final String NODE_LIFECYCLE = "dev.cumulus.NodeLifecycle";
    public static final String BROADCAST_WRITE = "dev.cumulus.BroadcastWrite";
    public static final String SEQUENCER_MIGRATION = "dev.cumulus.SequencerMigration";
    public static final String CLOUD_SUMMARY = "dev.cumulus.CloudSummary";
    public static final String PASTSET_OPERATION = "dev.cumulus.PastSetOperation";
    public static final String PASTSET_SUMMARY = "dev.cumulus.PastSetSummary";
    public static final String MIGRATION = "dev.cumulus.Migration";
    /**
     * The outcome of a {@code RemoteCall} that reached a forwarding address (the object had moved; the caller then calls
     * its new node, recorded as another event), and of a {@code Migration} that moved the object.
     */
    public static final String MOVED = "moved";
    /** Events known by name; any other {@code dev.cumulus.*} event is handled by its fields. */
    public static final List<String> KNOWN = List.of(REMOTE_CALL, NODE_LIFECYCLE, BROADCAST_WRITE,
        SEQUENCER_MIGRATION, CLOUD_SUMMARY, PASTSET_OPERATION, PASTSET_SUMMARY, MIGRATION, REMOTE_CALL_SERVED);

    private Events() {
    }

    public static boolean isCumulus(RecordedEvent e) {
        return e.getEventType().getName().startsWith(PREFIX);
    }

    /** The event name without {@code dev.cumulus.}. */
    public static String shortName(String name) {
        return name.startsWith(PREFIX) ? name.substring(PREFIX.length()) : name;
    }

    public static String str(RecordedEvent e, String name) {
        if (!e.hasField(name)) {
            return "";
        }
        Object v = e.getValue(name);
        return v == null ? "" : v.toString();
    }

    /** An int field, or -1 when absent (node ids). */
    public static int node(RecordedEvent e, String name) {
        if (!e.hasField(name)) {
            return -1;
        }
        return e.getValue(name) instanceof Number n ? n.intValue() : -1;
    }

    /** A numeric field, or 0 when absent. */
    public static long amount(RecordedEvent e, String name) {
        if (!e.hasField(name)) {
            return 0;
        }
        return e.getValue(name) instanceof Number n ? n.longValue() : 0;
    }

    public static boolean flag(RecordedEvent e, String name) {
        return e.hasField(name) && e.getValue(name) instanceof Boolean b && b;
    }

    /** Nanoseconds since the epoch of the event's end. */
    public static long endEpochNs(RecordedEvent e) {
        return epochNs(e.getEndTime());
    }

    /** Nanoseconds since the epoch of {@code t}. */
    public static long epochNs(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }

    /** Whether a field holds an amount of data (annotated {@code @DataAmount} or named like bytes). */
    public static boolean isBytes(ValueDescriptor d) {
        return "jdk.jfr.DataAmount".equals(d.getContentType()) || d.getName().toLowerCase().contains("bytes");
    }

    /** Whether a field is a numeric primitive. */
    public static boolean isNumber(ValueDescriptor d) {
        return switch (d.getTypeName()) {
            case "int", "long", "short", "byte" -> true;
            default -> false;
        };
    }
}
