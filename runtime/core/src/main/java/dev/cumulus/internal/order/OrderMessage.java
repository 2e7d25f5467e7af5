package dev.cumulus.internal.order;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Messages of the totally ordered broadcast (see docs/design/SEQUENCER.md). Encoded as one type byte and the
 * fields, little endian. Decoding is total: malformed input yields {@code null}.
 */
public sealed interface OrderMessage {
    int MAX_QUEUE = 4096;

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

    byte DATA = 1;
    byte REQUEST = 2;
    byte TOKEN = 3;
    byte SUBMIT = 4;

    /** Bytes {@code message} needs when encoded. */
    static int encodedLength(OrderMessage message) {
        return switch (message) {
            case Data d -> 17 + d.payload().length;
            case Request r -> 5;
            case Token t -> 13 + 4 * t.waiting().length;
            case Submit s -> 9 + s.payload().length;
        };
    }

    /** Encodes at offset 0; returns the length. The buffer must hold {@link #encodedLength} bytes. */
    static int encode(OrderMessage message, MutableDirectBuffer b) {
        ByteOrder le = ByteOrder.LITTLE_ENDIAN;
        return switch (message) {
            case Data d -> {
                b.putByte(0, DATA);
                b.putLong(1, d.seq(), le);
                b.putInt(9, d.origin(), le);
                b.putInt(13, d.payload().length, le);
                b.putBytes(17, d.payload());
                yield 17 + d.payload().length;
            }
            case Request r -> {
                b.putByte(0, REQUEST);
                b.putInt(1, r.requester(), le);
                yield 5;
            }
            case Token t -> {
                b.putByte(0, TOKEN);
                b.putLong(1, t.nextSeq(), le);
                b.putInt(9, t.waiting().length, le);
                for (int i = 0; i < t.waiting().length; i++) {
                    b.putInt(13 + 4 * i, t.waiting()[i], le);
                }
                yield 13 + 4 * t.waiting().length;
            }
            case Submit s -> {
                b.putByte(0, SUBMIT);
                b.putInt(1, s.origin(), le);
                b.putInt(5, s.payload().length, le);
                b.putBytes(9, s.payload());
                yield 9 + s.payload().length;
            }
        };
    }

    /** Decodes one message or returns {@code null}; node ids are checked against {@code size}. */
    static OrderMessage decode(DirectBuffer b, int offset, int length, int size) {
        ByteOrder le = ByteOrder.LITTLE_ENDIAN;
        if (length < 1) {
            return null;
        }
        switch (b.getByte(offset)) {
            case DATA -> {
                if (length < 17) {
                    return null;
                }
                long seq = b.getLong(offset + 1, le);
                int origin = b.getInt(offset + 9, le);
                int n = b.getInt(offset + 13, le);
                if (seq < 0 || origin < 0 || origin >= size || n < 0 || n != length - 17) {
                    return null;
                }
                byte[] payload = new byte[n];
                b.getBytes(offset + 17, payload);
                return new Data(seq, origin, payload);
            }
            case REQUEST -> {
                if (length != 5) {
                    return null;
                }
                int r = b.getInt(offset + 1, le);
                return r < 0 || r >= size ? null : new Request(r);
            }
            case TOKEN -> {
                if (length < 13) {
                    return null;
                }
                long next = b.getLong(offset + 1, le);
                int n = b.getInt(offset + 9, le);
                if (next < 0 || n < 0 || n > MAX_QUEUE || length != 13 + 4 * n) {
                    return null;
                }
                int[] waiting = new int[n];
                for (int i = 0; i < n; i++) {
                    waiting[i] = b.getInt(offset + 13 + 4 * i, le);
                    if (waiting[i] < 0 || waiting[i] >= size) {
                        return null;
                    }
                }
                return new Token(next, waiting);
            }
            case SUBMIT -> {
                if (length < 9) {
                    return null;
                }
                int origin = b.getInt(offset + 1, le);
                int n = b.getInt(offset + 5, le);
                if (origin < 0 || origin >= size || n < 0 || n != length - 9) {
                    return null;
                }
                byte[] payload = new byte[n];
                b.getBytes(offset + 9, payload);
                return new Submit(origin, payload);
            }
            default -> {
                return null;
            }
        }
    }
}
