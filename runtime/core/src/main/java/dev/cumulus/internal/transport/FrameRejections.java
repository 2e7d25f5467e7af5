package dev.cumulus.internal.transport;

import dev.cumulus.internal.jfr.RejectedFrameEvent;
import org.agrona.concurrent.NanoClock;

import java.util.function.Consumer;

/**
 * Frames dropped by {@link FrameOpener}: counted, each a {@link RejectedFrameEvent}, and told on the error output at
 * most once per interval, naming where the last one came from and how many were dropped since the last line. A flood
 * of forged datagrams thus costs a count and an event each, never a line each.
 *
 * <p>Threads: the polling thread records; any thread reads the count.
 */
final class FrameRejections {
    /** Why a frame was dropped. */
    enum Reason {
        NOT_SEALED("not a sealed frame of this transport"),
        OTHER_RUN("another run's frame"),
        BAD_TAG("no valid MAC under this run's key"),
        REPLAYED("a replay of a frame already taken");

        final String text;

        Reason(String text) {
            this.text = text;
        }
    }

    static final long DEFAULT_INTERVAL_NS = 1_000_000_000L;
    private final int nodeId;
    private final NanoClock clock;
    private final long intervalNs;
    private final Consumer<String> output;
    private volatile long count;
    private long unreported;
    private long lastLineNs;
    private boolean anyLine;

    FrameRejections(int nodeId, NanoClock clock, long intervalNs, Consumer<String> output) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.intervalNs = intervalNs;
        this.output = output;
    }

    void record(Reason reason, String source, int lengthBytes) {
        count++;
        RejectedFrameEvent.record(nodeId, source, reason.name().toLowerCase(), lengthBytes);
        unreported++;
        long now = clock.nanoTime();
        if (anyLine && now - lastLineNs < intervalNs) {
            return;
        }
        anyLine = true;
        lastLineNs = now;
        output.accept("cumulus: node " + nodeId + " transport: dropped " + (unreported == 1 ? "a frame"
            : unreported + " frames") + " without a valid seal, not decoded; the last from " + source + ": "
            + reason.text + " (" + count + " in all; at most one such line a second)");
        unreported = 0;
    }

    /** Frames dropped so far. */
    long count() {
        return count;
    }
}
