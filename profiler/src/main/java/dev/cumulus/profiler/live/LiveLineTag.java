package dev.cumulus.profiler.live;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Arrays;

/**
 * The live profile's datagrams are authenticated: each is a {@value #TAG_LENGTH}-byte HMAC-SHA256 tag of the line under
 * the run's live profile key (derived from the run's secret by the runtime and handed to both ends), then the line's
 * UTF-8 bytes. The launcher's sink takes a line only when its tag checks, so no other local process can feed the run's
 * profile. Not thread-safe: one per thread that tags or checks.
 */
final class LiveLineTag {
    static final int TAG_LENGTH = 32;
    private final Mac mac;

    LiveLineTag(byte[] key) {
        if (key == null || key.length < 16) {
            throw new IllegalArgumentException("the live profile key is missing or shorter than 16 bytes");
        }
        try {
            mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JDK has no HmacSHA256: " + e.getMessage(), e);
        }
    }

    /** The datagram for {@code line}: tag, then the line. */
    byte[] seal(byte[] line) {
        byte[] tag = mac.doFinal(line);
        byte[] datagram = Arrays.copyOf(tag, TAG_LENGTH + line.length);
        System.arraycopy(line, 0, datagram, TAG_LENGTH, line.length);
        return datagram;
    }

    /** True when {@code data[offset, offset + length)} is a tag and a line whose tag checks. */
    boolean check(byte[] data, int offset, int length) {
        if (length < TAG_LENGTH) {
            return false;
        }
        mac.update(data, offset + TAG_LENGTH, length - TAG_LENGTH);
        byte[] expected = mac.doFinal();
        return MessageDigest.isEqual(expected, Arrays.copyOfRange(data, offset, offset + TAG_LENGTH));
    }
}
