package dev.cumulus.internal.transport;

import io.aeron.Image;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;

/**
 * The receiving end of sealed frames (see {@link FrameHeaderFlyweight}): a frame that arrived over UDP is taken only
 * when it is sealed the way this run seals (type, flags, run tag, a sender among the run's other nodes), its tag checks
 * under the run's key for this node and channel, and its counter is above the last one taken from that sender on that
 * channel; then its payload is at {@link #payloadBuffer()} (decrypted, with {@link FrameSealing#ENCRYPT}). Anything
 * else is dropped and told to {@link FrameRejections} with the address it came from; its payload is never read except
 * to check the tag.
 *
 * <p>Threads: the polling thread only (one poll at a time). A handler may poll again on the same thread before it
 * returns (WIRE.md): between {@link #hold()} and {@link #release()} a decrypted payload keeps its buffer, and a frame
 * opened meanwhile decrypts into another.
 */
final class FrameOpener {
    private final int nodeId;
    private final int size;
    /** Sources below it may send: {@code size}, or the clients' ids too on a server that serves them over UDP. */
    private final int sources;
    /** Keys of each client's frames (a server's), made when its first frame comes; null: no client sends here. */
    private final java.util.function.IntFunction<SealKeys> clientKeys;
    private final Mac[] clientMacs;
    private final int runTag;
    private final boolean encrypt;
    private final Mac mac;
    private final Cipher cipher;
    private final javax.crypto.SecretKey encryptionKey;
    private final byte[][] prefixes;
    private final long[][] lastCounter;
    private final byte[] headerBytes = new byte[FrameHeaderFlyweight.SEALED_CHUNK_LENGTH];
    private final UnsafeBuffer headerView = new UnsafeBuffer(headerBytes);
    private final byte[] tag = new byte[32];
    private final byte[] nonce = new byte[SealKeys.NONCE_LENGTH];
    private final byte[] macScratch = new byte[4096];
    private final FrameHeaderFlyweight frame = new FrameHeaderFlyweight();
    private final FrameRejections rejections;
    private byte[] sealed = new byte[0];
    /** Decrypted payloads, one buffer per nesting depth of the handlers that hold them. */
    private final java.util.ArrayList<byte[]> plains = new java.util.ArrayList<>();
    private final java.util.ArrayList<UnsafeBuffer> plainViews = new java.util.ArrayList<>();
    private int depth;
    private DirectBuffer payloadBuffer;
    private int payloadOffset;
    private int payloadLength;
    private int headerLength;

    /**
     * @param clientKeys null, or on a server of a standing cluster the keys of client {@code size..capacity-1}'s
     *                   frames by its id (authenticated, never encrypted)
     */
    FrameOpener(SealKeys keys, int nodeId, int size, int capacity, java.util.function.IntFunction<SealKeys> clientKeys,
                int runTag, FrameRejections rejections) {
        this.nodeId = nodeId;
        this.size = size;
        this.sources = clientKeys == null ? size : capacity;
        this.clientKeys = clientKeys;
        this.clientMacs = new Mac[sources];
        this.runTag = runTag;
        this.encrypt = keys.encrypt();
        this.mac = encrypt ? null : keys.newMac();
        this.cipher = keys.newCipher();
        this.encryptionKey = keys.encryptionKey();
        this.rejections = rejections;
        Channel[] channels = Channel.values();
        this.prefixes = new byte[channels.length][];
        for (Channel ch : channels) {
            prefixes[ch.ordinal()] = SealKeys.streamPrefix(nodeId, ch.ordinal());
        }
        this.lastCounter = new long[sources][channels.length];
    }

    /**
     * Checks the frame at {@code buffer[offset, offset + length)} that arrived on {@code channel}.
     *
     * @return true when it is this run's, untouched and new: its plain header fields are then readable in place and
     * its payload is at {@link #payloadBuffer()}; false when it was dropped (and counted)
     */
    boolean open(Channel channel, DirectBuffer buffer, int offset, int length, Header aeronHeader) {
        FrameHeaderFlyweight f = frame.wrap(buffer, offset);
        int hl = f.sealedHeaderLength(length);
        int source = hl == FrameHeaderFlyweight.REJECTED ? -1 : f.source();
        boolean encrypted = encrypt && source < size; // a client's frames are authenticated only
        if (hl == FrameHeaderFlyweight.REJECTED
            || f.flags() != (encrypted ? FrameHeaderFlyweight.FLAG_ENCRYPTED : 0)) {
            return reject(FrameRejections.Reason.NOT_SEALED, aeronHeader, length);
        }
        if (f.runTag() != runTag || source < 0 || source >= sources || source == nodeId) {
            return reject(FrameRejections.Reason.OTHER_RUN, aeronHeader, length);
        }
        int tagOffset = hl - FrameHeaderFlyweight.TAG_LENGTH;
        buffer.getBytes(offset, headerBytes, 0, hl);
        int bodyLength = length - hl;
        boolean valid = encrypted ? decrypt(channel, source, buffer, offset + hl, bodyLength, tagOffset)
            : checkMac(source < size ? mac : clientMac(source), channel, buffer, offset + hl, bodyLength, tagOffset);
        if (!valid) {
            return reject(FrameRejections.Reason.BAD_TAG, aeronHeader, length);
        }
        long counter = headerView.getLong(tagOffset - 8, ByteOrder.LITTLE_ENDIAN);
        long[] last = lastCounter[source];
        if (counter <= last[channel.ordinal()]) {
            return reject(FrameRejections.Reason.REPLAYED, aeronHeader, length);
        }
        last[channel.ordinal()] = counter;
        headerLength = hl;
        if (!encrypted) {
            payloadBuffer = buffer;
            payloadOffset = offset + hl;
        }
        payloadLength = bodyLength;
        return true;
    }

    private Mac clientMac(int client) {
        Mac m = clientMacs[client];
        if (m == null) {
            m = clientKeys.apply(client).newMac();
            clientMacs[client] = m;
        }
        return m;
    }

    private boolean checkMac(Mac mac, Channel channel, DirectBuffer buffer, int offset, int length, int tagOffset) {
        mac.update(prefixes[channel.ordinal()]);
        mac.update(headerBytes, 0, tagOffset);
        SealKeys.update(mac, buffer, offset, length, macScratch);
        try {
            mac.doFinal(tag, 0);
        } catch (ShortBufferException e) {
            throw new IllegalStateException(e);
        }
        int diff = 0;
        for (int i = 0; i < FrameHeaderFlyweight.TAG_LENGTH; i++) {
            diff |= tag[i] ^ headerBytes[tagOffset + i];
        }
        return diff == 0;
    }

    private boolean decrypt(Channel channel, int source, DirectBuffer buffer, int offset, int length, int tagOffset) {
        int sealedLength = length + FrameHeaderFlyweight.TAG_LENGTH;
        if (sealed.length < sealedLength) {
            sealed = new byte[sealedLength];
        }
        while (plains.size() <= depth) {
            plains.add(new byte[0]);
            plainViews.add(new UnsafeBuffer(0, 0));
        }
        byte[] plain = plains.get(depth);
        if (plain.length < sealedLength) {
            plain = new byte[sealedLength];
            plains.set(depth, plain);
        }
        buffer.getBytes(offset, sealed, 0, length);
        System.arraycopy(headerBytes, tagOffset, sealed, length, FrameHeaderFlyweight.TAG_LENGTH);
        long counter = headerView.getLong(tagOffset - 8, ByteOrder.LITTLE_ENDIAN);
        SealKeys.nonce(nonce, source, nodeId, channel.ordinal(), counter);
        try {
            cipher.init(Cipher.DECRYPT_MODE, encryptionKey, new GCMParameterSpec(FrameHeaderFlyweight.TAG_LENGTH * 8,
                nonce));
            cipher.updateAAD(prefixes[channel.ordinal()]);
            cipher.updateAAD(headerBytes, 0, tagOffset);
            int n = cipher.doFinal(sealed, 0, sealedLength, plain, 0);
            UnsafeBuffer plainView = plainViews.get(depth);
            plainView.wrap(plain, 0, n);
            payloadBuffer = plainView;
            payloadOffset = 0;
            return true;
        } catch (GeneralSecurityException e) {
            return false; // AEADBadTagException: forged or damaged
        }
    }

    private boolean reject(FrameRejections.Reason reason, Header aeronHeader, int length) {
        rejections.record(reason, sourceOf(aeronHeader), length);
        return false;
    }

    private static String sourceOf(Header header) {
        return header != null && header.context() instanceof Image image ? image.sourceIdentity() : "an unknown source";
    }

    /** The frame {@link #open} took is being handled: frames opened until {@link #release()} decrypt elsewhere. */
    void hold() {
        depth++;
    }

    /** The handler of the frame last held has returned. */
    void release() {
        depth--;
    }

    /** Where the payload of the frame {@link #open} last took starts. */
    DirectBuffer payloadBuffer() {
        return payloadBuffer;
    }

    int payloadOffset() {
        return payloadOffset;
    }

    int payloadLength() {
        return payloadLength;
    }

    /** The sealed header's length of the frame last taken. */
    int headerLength() {
        return headerLength;
    }
}
