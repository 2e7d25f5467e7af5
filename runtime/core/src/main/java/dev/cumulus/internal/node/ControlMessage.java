package dev.cumulus.internal.node;

import java.nio.charset.StandardCharsets;

/**
 * Messages of the control channel: membership, liveness, the global barrier and fail-stop. Each is a record; its
 * wire form is {@link ControlFlyweight}'s. Decoding is total: unknown or short input yields {@code null}, never an
 * exception.
 */
sealed interface ControlMessage {
    /**
     * "I am up and subscribed, as process {@code pid} of host {@code host}." Sent until the sender has heard from
     * everybody. {@code host} identifies the operating system instance and process namespace ({@code HostIdentity});
     * 0: unknown. A receiver on the same host watches the process, so its death is known at once.
     */
    record Hello(long pid, long host) implements ControlMessage {
    }

    /**
     * "I am alive, and my agent has run {@code progress} duty cycles." Sent every heartbeat interval by the node's
     * heartbeat thread, and by its agent in answer to a {@link Probe}. Only a beat whose count moved proves the
     * sender's agent alive. It names the sender's process as a {@link Hello} does: a peer that joined on beats alone,
     * without a hello, still watches it.
     */
    record Heartbeat(long progress, long pid, long host) implements ControlMessage {
    }

    /** "I suspect you: prove you live." Its receiver's agent answers with a {@link Heartbeat}. */
    record Probe() implements ControlMessage {
    }

    /**
     * A node entered global barrier {@code epoch} (its count of barriers), of {@code kind}, having applied broadcasts
     * up to {@code watermark}.
     */
    record BarrierEnter(long epoch, long watermark, BarrierKind kind) implements ControlMessage {
    }

    /** Every node entered barrier {@code epoch}; each leaves once it applied broadcasts up to {@code watermark}. */
    record BarrierRelease(long epoch, long watermark) implements ControlMessage {
    }

    /**
     * The sender is leaving after global barrier {@code lastBarrier}, as {@code leaving} says; its silence from now on
     * is not a failure, and barriers after that one cannot complete.
     */
    record Goodbye(long lastBarrier, Leaving leaving) implements ControlMessage {
    }

    /** Node {@code failedNode} failed for {@code reason}; the run is over (fail-stop). */
    record Failure(int failedNode, String reason) implements ControlMessage {
    }

    /** Encodes {@code message} where {@code out} is wrapped; returns its length. */
    static int encode(ControlMessage message, ControlFlyweight out) {
        return switch (message) {
            case Hello h -> out.writeHello(h.pid(), h.host());
            case Heartbeat h -> out.writeHeartbeat(h.progress(), h.pid(), h.host());
            case Probe p -> out.writeTypeOnly(ControlFlyweight.PROBE);
            case BarrierEnter b -> out.writeBarrierEnter(b.epoch(), b.watermark(), b.kind());
            case BarrierRelease b -> out.writeBarrierRelease(b.epoch(), b.watermark());
            case Goodbye g -> out.writeGoodbye(g.lastBarrier(), g.leaving());
            case Failure f -> out.writeFailure(f.failedNode(), f.reason().getBytes(StandardCharsets.UTF_8));
        };
    }

    /**
     * Decodes the message of {@code length} bytes {@code in} is wrapped over, or returns {@code null} when
     * {@link ControlFlyweight#validate} refuses it.
     */
    static ControlMessage decode(ControlFlyweight in, int length) {
        if (!in.validate(length)) {
            return null;
        }
        return switch (in.type()) {
            case ControlFlyweight.HELLO -> new Hello(in.pid(), in.host());
            case ControlFlyweight.HEARTBEAT -> new Heartbeat(in.progress(), in.pid(), in.host());
            case ControlFlyweight.PROBE -> new Probe();
            case ControlFlyweight.BARRIER_ENTER ->
                new BarrierEnter(in.epoch(), in.watermark(), BarrierKind.of(in.barrierKind()));
            case ControlFlyweight.BARRIER_RELEASE -> new BarrierRelease(in.epoch(), in.watermark());
            case ControlFlyweight.GOODBYE -> new Goodbye(in.lastBarrier(), Leaving.of(in.leaving()));
            case ControlFlyweight.FAILURE -> new Failure(in.failedNode(), in.reason());
            default -> null; // validate accepts no other type
        };
    }
}
