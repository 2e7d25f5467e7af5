package dev.cumulus.internal.transport;

import dev.cumulus.CumulusException;
import io.aeron.Publication;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.ShortBufferException;
import javax.crypto.spec.GCMParameterSpec;
import java.security.GeneralSecurityException;

/**
 * A UDP publication to one peer's channel whose every frame is sealed ({@link FrameHeaderFlyweight}'s seal): the next
 * counter, the tag over the stream, the header and the payload (encrypted first with {@link FrameSealing#ENCRYPT}).
 *
 * <p>Threads: any sender. Counting, sealing and offering happen under this object's lock, so frames enter the stream
 * in counter order and the receiver can take a counter at or below the last one for a replay. A refused offer used
 * its counter; the next attempt seals again under a new one.
 */
final class SealedPublication {
    private final Publication publication;
    private final int source;
    private final int destination;
    private final int channel;
    private final byte[] prefix;
    private final boolean encrypt;
    private final Mac mac;
    private final Cipher cipher;
    private final javax.crypto.SecretKey encryptionKey;
    private final byte[] headerBytes = new byte[FrameHeaderFlyweight.SEALED_CHUNK_LENGTH];
    private final UnsafeBuffer header = new UnsafeBuffer(headerBytes);
    private final byte[] tag = new byte[32];
    private final byte[] nonce = new byte[SealKeys.NONCE_LENGTH];
    private final byte[] macScratch = new byte[4096];
    private byte[] data = new byte[0];
    private final UnsafeBuffer dataView = new UnsafeBuffer(0, 0);
    private long counter;

    SealedPublication(Publication publication, SealKeys keys, int source, int destination, Channel channel) {
        this(publication, keys, source, destination, channel, 0);
    }

    /** @param lastCounter the counter before the first frame's (a client's: above every earlier holder's of its id) */
    SealedPublication(Publication publication, SealKeys keys, int source, int destination, Channel channel,
                      long lastCounter) {
        this.counter = lastCounter;
        this.publication = publication;
        this.source = source;
        this.destination = destination;
        this.channel = channel.ordinal();
        this.prefix = SealKeys.streamPrefix(destination, channel.ordinal());
        this.encrypt = keys.encrypt();
        this.mac = encrypt ? null : keys.newMac();
        this.cipher = keys.newCipher();
        this.encryptionKey = keys.encryptionKey();
    }

    /**
     * Seals a frame whose plain header is {@code plainHeader[0, plainLength)} ({@link FrameHeaderFlyweight#WHOLE_LENGTH}
     * or {@link FrameHeaderFlyweight#CHUNK_LENGTH}) and offers it once.
     *
     * @return Aeron's offer result
     */
    synchronized long offer(DirectBuffer plainHeader, int plainLength, DirectBuffer payload, int offset, int length) {
        if (counter == SealKeys.MAX_COUNTER) {
            throw new CumulusException("node " + source + " has sent 2^56 frames to node " + destination
                + " on one stream; start a new run");
        }
        long count = ++counter;
        plainHeader.getBytes(0, headerBytes, 0, plainLength);
        headerBytes[FrameHeaderFlyweight.TYPE_OFFSET] |= FrameHeaderFlyweight.SEALED;
        headerBytes[FrameHeaderFlyweight.PADDING_OFFSET] = encrypt ? FrameHeaderFlyweight.FLAG_ENCRYPTED : 0;
        header.putLong(plainLength, count, java.nio.ByteOrder.LITTLE_ENDIAN);
        int tagOffset = plainLength + 8;
        int headerLength = tagOffset + FrameHeaderFlyweight.TAG_LENGTH;
        if (!encrypt) {
            mac.update(prefix);
            mac.update(headerBytes, 0, tagOffset);
            SealKeys.update(mac, payload, offset, length, macScratch);
            try {
                mac.doFinal(tag, 0);
            } catch (ShortBufferException e) {
                throw new IllegalStateException(e);
            }
            System.arraycopy(tag, 0, headerBytes, tagOffset, FrameHeaderFlyweight.TAG_LENGTH);
            return publication.offer(header, 0, headerLength, payload, offset, length);
        }
        int sealedLength = length + FrameHeaderFlyweight.TAG_LENGTH;
        if (data.length < sealedLength) {
            data = new byte[sealedLength];
        }
        payload.getBytes(offset, data, 0, length);
        SealKeys.nonce(nonce, source, destination, channel, count);
        try {
            cipher.init(Cipher.ENCRYPT_MODE, encryptionKey, new GCMParameterSpec(FrameHeaderFlyweight.TAG_LENGTH * 8,
                nonce));
            cipher.updateAAD(prefix);
            cipher.updateAAD(headerBytes, 0, tagOffset);
            cipher.doFinal(data, 0, length, data, 0);
        } catch (GeneralSecurityException e) {
            throw new CumulusException("node " + source + " could not encrypt a frame: " + e.getMessage(), e);
        }
        System.arraycopy(data, length, headerBytes, tagOffset, FrameHeaderFlyweight.TAG_LENGTH);
        dataView.wrap(data, 0, length);
        return publication.offer(header, 0, headerLength, dataView, 0, length);
    }
}
