package dev.cumulus.profiler.channel;

import java.util.List;

/**
 * One node's events over one window of about a second, sent by the node's live profiler.
 *
 * @param type          always {@value #TYPE}
 * @param version       {@link ProfileRecord#VERSION}
 * @param node          the node that sent it
 * @param sentMs        when the node sent it, ms since the epoch
 * @param recvMs        when the launcher received it, ms since the epoch (set by the launcher; absent on the node)
 * @param windowMs      the window's length
 * @param firstEventMs  end time of the window's oldest event, ms since the epoch (absent without events)
 * @param lastEventMs   end time of the window's newest event, ms since the epoch (absent without events)
 * @param totals        what the node did in the window
 * @param objects       objects with activity in the window, busiest first
 * @param more          objects left out to keep the line short (absent when none)
 */
public record LiveWindow(String type, int version, int node, long sentMs, Long recvMs, long windowMs,
                         Long firstEventMs, Long lastEventMs, Totals totals, List<LiveObject> objects, Integer more)
    implements ProfileRecord {
    public static final String TYPE = "window";

    /** A window as the node writes it (no {@code recvMs}). */
    public LiveWindow(int node, long sentMs, long windowMs, Long firstEventMs, Long lastEventMs, Totals totals,
                      List<LiveObject> objects, Integer more) {
        this(TYPE, VERSION, node, sentMs, null, windowMs, firstEventMs, lastEventMs, totals, objects, more);
    }

    /** This window as received by the launcher at {@code recvMs}. */
    public LiveWindow received(long recvMs) {
        return new LiveWindow(type, version, node, sentMs, recvMs, windowMs, firstEventMs, lastEventMs, totals,
            objects, more);
    }

    /** The objects, never null (a record read from JSON may lack the field). */
    public List<LiveObject> objectsOrEmpty() {
        return objects == null ? List.of() : objects;
    }

    /**
     * What a node did in one window (counts of events, bytes on the wire).
     *
     * @param events            Cumulus events
     * @param remoteCalls       remote calls made
     * @param writes            replicated writes issued
     * @param bytes             bytes sent, by the events' accounts
     * @param sequencerArrivals times the sequencer arrived at this node
     * @param misses            shared-array misses
     */
    public record Totals(long events, long remoteCalls, long writes, long bytes, long sequencerArrivals, long misses) {
    }
}
