package dev.cumulus.internal.cloud;

import dev.cumulus.internal.wire.Flyweight;


/**
 * A message of the totally ordered broadcast ({@link OrderMessage}), read and written in place (a flyweight: no copy,
 * no allocation). Little endian: a type byte, then exactly that type's fields; layout in docs/design/WIRE.md.
 * {@link #validate(int, int)} is the decoder's check (lengths, counts, sequence numbers, node ids); a message it
 * refuses is dropped.
 */
final class OrderFlyweight extends Flyweight<OrderFlyweight> {
    static final byte DATA = 1;
    static final byte REQUEST = 2;
    static final byte TOKEN = 3;
    static final byte SUBMIT = 4;

    /** Most nodes a token may list as waiting for it. */
    static final int MAX_WAITING = 4096;

    static final int TYPE_OFFSET = 0;
    static final int DATA_SEQ_OFFSET = 1;
    static final int DATA_ORIGIN_OFFSET = 9;
    static final int DATA_PAYLOAD_LENGTH_OFFSET = 13;
    static final int DATA_PAYLOAD_OFFSET = 17;
    static final int REQUEST_REQUESTER_OFFSET = 1;
    static final int REQUEST_LENGTH = 5;
    static final int TOKEN_NEXT_SEQ_OFFSET = 1;
    static final int TOKEN_WAITING_COUNT_OFFSET = 9;
    static final int TOKEN_WAITING_OFFSET = 13;
    static final int SUBMIT_ORIGIN_OFFSET = 1;
    static final int SUBMIT_PAYLOAD_LENGTH_OFFSET = 5;
    static final int SUBMIT_PAYLOAD_OFFSET = 9;

    static int dataLength(int payloadLength) {
        return DATA_PAYLOAD_OFFSET + payloadLength;
    }

    static int tokenLength(int waitingCount) {
        return TOKEN_WAITING_OFFSET + Integer.BYTES * waitingCount;
    }

    static int submitLength(int payloadLength) {
        return SUBMIT_PAYLOAD_OFFSET + payloadLength;
    }

    /**
     * True when a message of {@code messageLength} bytes is an order message of a known type, exactly as long as its
     * fields say, with sequence numbers &ge; 0, at most {@link #MAX_WAITING} waiting nodes and every node id below
     * {@code size}; false: reject it (it is dropped). Reads nothing past {@code messageLength}.
     */
    boolean validate(int messageLength, int size) {
        if (messageLength < 1) {
            return false;
        }
        return switch (type()) {
            case DATA -> messageLength >= DATA_PAYLOAD_OFFSET && seq() >= 0 && isNode(origin(), size)
                && payloadLength() == messageLength - DATA_PAYLOAD_OFFSET;
            case REQUEST -> messageLength == REQUEST_LENGTH && isNode(requester(), size);
            case TOKEN -> messageLength >= TOKEN_WAITING_OFFSET && validToken(messageLength, size);
            case SUBMIT -> messageLength >= SUBMIT_PAYLOAD_OFFSET && isNode(origin(), size)
                && payloadLength() == messageLength - SUBMIT_PAYLOAD_OFFSET;
            default -> false;
        };
    }

    private boolean validToken(int messageLength, int size) {
        int n = waitingCount();
        if (nextSeq() < 0 || n < 0 || n > MAX_WAITING || messageLength != tokenLength(n)) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            if (!isNode(waiting(i), size)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isNode(int id, int size) {
        return id >= 0 && id < size;
    }

    byte type() {
        return buffer.getByte(offset + TYPE_OFFSET);
    }

    /** Data: the message's number in the total order. */
    long seq() {
        return buffer.getLong(offset + DATA_SEQ_OFFSET, ORDER);
    }

    /** Data and submit: the node whose message it is. */
    int origin() {
        return buffer.getInt(offset + (type() == DATA ? DATA_ORIGIN_OFFSET : SUBMIT_ORIGIN_OFFSET), ORDER);
    }

    /** Data and submit: the payload's length in bytes. */
    int payloadLength() {
        return buffer.getInt(offset + (type() == DATA ? DATA_PAYLOAD_LENGTH_OFFSET : SUBMIT_PAYLOAD_LENGTH_OFFSET),
            ORDER);
    }

    /** Data and submit: copies the payload into {@code destination}, which is {@link #payloadLength} long. */
    void getPayload(byte[] destination) {
        buffer.getBytes(offset + (type() == DATA ? DATA_PAYLOAD_OFFSET : SUBMIT_PAYLOAD_OFFSET), destination);
    }

    /** Request: the node that wants the token. */
    int requester() {
        return buffer.getInt(offset + REQUEST_REQUESTER_OFFSET, ORDER);
    }

    /** Token: the number its receiver stamps next. */
    long nextSeq() {
        return buffer.getLong(offset + TOKEN_NEXT_SEQ_OFFSET, ORDER);
    }

    /** Token: how many nodes wait for it. */
    int waitingCount() {
        return buffer.getInt(offset + TOKEN_WAITING_COUNT_OFFSET, ORDER);
    }

    /** Token: the {@code i}th node waiting for it. */
    int waiting(int i) {
        return buffer.getInt(offset + TOKEN_WAITING_OFFSET + Integer.BYTES * i, ORDER);
    }

    /** Writes a data message; returns its length. */
    int writeData(long seq, int origin, byte[] payload) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, DATA);
        mutableBuffer.putLong(offset + DATA_SEQ_OFFSET, seq, ORDER);
        mutableBuffer.putInt(offset + DATA_ORIGIN_OFFSET, origin, ORDER);
        mutableBuffer.putInt(offset + DATA_PAYLOAD_LENGTH_OFFSET, payload.length, ORDER);
        mutableBuffer.putBytes(offset + DATA_PAYLOAD_OFFSET, payload);
        return dataLength(payload.length);
    }

    /** Writes a request; returns its length. */
    int writeRequest(int requester) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, REQUEST);
        mutableBuffer.putInt(offset + REQUEST_REQUESTER_OFFSET, requester, ORDER);
        return REQUEST_LENGTH;
    }

    /** Writes a token; returns its length. */
    int writeToken(long nextSeq, int[] waiting) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, TOKEN);
        mutableBuffer.putLong(offset + TOKEN_NEXT_SEQ_OFFSET, nextSeq, ORDER);
        mutableBuffer.putInt(offset + TOKEN_WAITING_COUNT_OFFSET, waiting.length, ORDER);
        for (int i = 0; i < waiting.length; i++) {
            mutableBuffer.putInt(offset + TOKEN_WAITING_OFFSET + Integer.BYTES * i, waiting[i], ORDER);
        }
        return tokenLength(waiting.length);
    }

    /** Writes a submit; returns its length. */
    int writeSubmit(int origin, byte[] payload) {
        mutableBuffer.putByte(offset + TYPE_OFFSET, SUBMIT);
        mutableBuffer.putInt(offset + SUBMIT_ORIGIN_OFFSET, origin, ORDER);
        mutableBuffer.putInt(offset + SUBMIT_PAYLOAD_LENGTH_OFFSET, payload.length, ORDER);
        mutableBuffer.putBytes(offset + SUBMIT_PAYLOAD_OFFSET, payload);
        return submitLength(payload.length);
    }
}
