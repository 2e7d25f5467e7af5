package dev.cumulus.internal.cloud;

/**
 * Messages of the totally ordered broadcast (see docs/design/SEQUENCER.md). Each is a record; its wire form is
 * {@link OrderFlyweight}'s. Decoding is total: malformed input yields {@code null}.
 */
public sealed interface OrderMessage {
    /** A stamped message: deliver {@code payload} from {@code origin} as number {@code seq}. */
    record Data(long seq, int origin, byte[] payload) implements OrderMessage {
    }

    /** {@code requester} wants the sequencer token (migrating mode). Forwarded until it reaches the holder. */
    record Request(int requester) implements OrderMessage {
    }

    /** The sequencer token: the receiver now stamps from {@code nextSeq}; {@code waiting} asked for it next. */
    record Token(long nextSeq, int[] waiting) implements OrderMessage {
    }

    /** Static mode: {@code origin} asks the fixed sequencer to stamp and broadcast {@code payload}. */
    record Submit(int origin, byte[] payload) implements OrderMessage {
    }

    /** Bytes {@code message} needs when encoded. */
    static int encodedLength(OrderMessage message) {
        return switch (message) {
            case Data d -> OrderFlyweight.dataLength(d.payload().length);
            case Request r -> OrderFlyweight.REQUEST_LENGTH;
            case Token t -> OrderFlyweight.tokenLength(t.waiting().length);
            case Submit s -> OrderFlyweight.submitLength(s.payload().length);
        };
    }

    /**
     * Encodes {@code message} where {@code out} is wrapped; returns the length. The buffer must hold
     * {@link #encodedLength} bytes from there (or grow).
     */
    static int encode(OrderMessage message, OrderFlyweight out) {
        return switch (message) {
            case Data d -> out.writeData(d.seq(), d.origin(), d.payload());
            case Request r -> out.writeRequest(r.requester());
            case Token t -> out.writeToken(t.nextSeq(), t.waiting());
            case Submit s -> out.writeSubmit(s.origin(), s.payload());
        };
    }

    /**
     * Decodes the message of {@code length} bytes {@code in} is wrapped over, or returns {@code null} when
     * {@link OrderFlyweight#validate} refuses it (node ids are checked against {@code size}).
     */
    static OrderMessage decode(OrderFlyweight in, int length, int size) {
        if (!in.validate(length, size)) {
            return null;
        }
        return switch (in.type()) {
            case OrderFlyweight.DATA -> new Data(in.seq(), in.origin(), payload(in));
            case OrderFlyweight.REQUEST -> new Request(in.requester());
            case OrderFlyweight.TOKEN -> {
                int[] waiting = new int[in.waitingCount()];
                for (int i = 0; i < waiting.length; i++) {
                    waiting[i] = in.waiting(i);
                }
                yield new Token(in.nextSeq(), waiting);
            }
            case OrderFlyweight.SUBMIT -> new Submit(in.origin(), payload(in));
            default -> null; // validate accepts no other type
        };
    }

    private static byte[] payload(OrderFlyweight in) {
        byte[] payload = new byte[in.payloadLength()];
        in.getPayload(payload);
        return payload;
    }
}
