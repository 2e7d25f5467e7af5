package dev.cumulus.internal.transport;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.RunSecret;

import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.SecretKey;
import org.agrona.DirectBuffer;
import java.security.GeneralSecurityException;

/**
 * The keys of sealed frames, derived from the run's secret: one for the HMAC-SHA256 tag, one for AES-GCM (only with
 * {@link FrameSealing#ENCRYPT}), and the nonce rule. A GCM nonce must never repeat under one key: it is the sender's
 * and the destination's node ids (16 bits each), the channel (8 bits) and the stream's counter (56 bits), unique
 * because each (sender, destination, channel) stream counts its own frames from 1.
 */
final class SealKeys {
    static final String MAC_PURPOSE = "cumulus frame hmac-sha256 v1";
    static final String ENCRYPTION_PURPOSE = "cumulus frame aes-256-gcm v1";
    static final int NONCE_LENGTH = 12;
    /** Counters stay below this: 56 bits in the nonce. */
    static final long MAX_COUNTER = (1L << 56) - 1;
    static final int MAX_NODES = 1 << 16;

    private final SecretKey macKey;
    private final SecretKey encryptionKey;
    private final boolean encrypt;

    SealKeys(RunSecret secret, boolean encrypt) {
        this.macKey = secret.key(MAC_PURPOSE, "HmacSHA256", 32);
        this.encrypt = encrypt;
        this.encryptionKey = encrypt ? secret.key(ENCRYPTION_PURPOSE, "AES", 32) : null;
    }

    boolean encrypt() {
        return encrypt;
    }

    SecretKey encryptionKey() {
        return encryptionKey;
    }

    /** A MAC for one thread (or one lock) at a time. */
    Mac newMac() {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(macKey);
            return mac;
        } catch (GeneralSecurityException e) {
            throw new CumulusException("this JDK has no HmacSHA256: " + e.getMessage(), e);
        }
    }

    /** A cipher for one thread (or one lock) at a time; null without encryption. */
    Cipher newCipher() {
        if (!encrypt) {
            return null;
        }
        try {
            return Cipher.getInstance("AES/GCM/NoPadding");
        } catch (GeneralSecurityException e) {
            throw new CumulusException("this JDK has no AES/GCM/NoPadding: " + e.getMessage(), e);
        }
    }

    /** Writes the nonce of frame {@code counter} from {@code source} to {@code destination} on {@code channel}. */
    static void nonce(byte[] nonce, int source, int destination, int channel, long counter) {
        nonce[0] = (byte) (source >>> 8);
        nonce[1] = (byte) source;
        nonce[2] = (byte) (destination >>> 8);
        nonce[3] = (byte) destination;
        nonce[4] = (byte) channel;
        for (int i = 0; i < 7; i++) {
            nonce[5 + i] = (byte) (counter >>> (8 * (6 - i)));
        }
    }

    /** Feeds {@code length} bytes of {@code buffer} to {@code mac}: in place when it wraps an array, else via {@code scratch}. */
    static void update(Mac mac, DirectBuffer buffer, int offset, int length, byte[] scratch) {
        byte[] array = buffer.byteArray();
        if (array != null) {
            mac.update(array, (int) buffer.wrapAdjustment() + offset, length);
            return;
        }
        for (int done = 0; done < length; done += scratch.length) {
            int n = Math.min(scratch.length, length - done);
            buffer.getBytes(offset + done, scratch, 0, n);
            mac.update(scratch, 0, n);
        }
    }

    /** The bytes bound into every tag before the header: the destination (i32, little endian) and the channel. */
    static byte[] streamPrefix(int destination, int channel) {
        return new byte[] {(byte) destination, (byte) (destination >>> 8), (byte) (destination >>> 16),
            (byte) (destination >>> 24), (byte) channel};
    }
}
