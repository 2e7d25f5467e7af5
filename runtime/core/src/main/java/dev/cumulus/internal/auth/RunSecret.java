package dev.cumulus.internal.auth;

import dev.cumulus.CumulusException;

import javax.crypto.KDF;
import javax.crypto.SecretKey;
import javax.crypto.spec.HKDFParameterSpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;

/**
 * A run's secret: {@value #LENGTH_BYTES} bytes from {@link SecureRandom}, made once per run by whoever starts its nodes
 * (the launcher, {@code LocalCluster}) and handed to each node on its stdin as one line ({@link #line()}), never on a
 * command line or in a file. Holding it is what makes a process a member of the run: every key the run uses is derived
 * from it ({@link #key}, HKDF-SHA256 with a label per purpose), so a key for one purpose tells nothing of another.
 *
 * <p>{@link #toString()} never shows the bytes.
 */
public final class RunSecret {
    public static final int LENGTH_BYTES = 32;
    /** The first word of the secret's line on a node's stdin. */
    public static final String LINE_PREFIX = "cumulus-secret-v1 ";
    /** The purpose of the key that tags the nodes' live profile lines to the launcher. */
    public static final String LIVE_PROFILE_PURPOSE = "cumulus live profile hmac-sha256 v1";
    /** A standing cluster's credential (its keeper writes it into the owner-only state file; clients prove it). */
    public static final String STANDING_CREDENTIAL_PURPOSE = "cumulus standing cluster credential v1";
    /** A standing cluster's client secret: the frames between its servers and clients over UDP are sealed under it. */
    public static final String STANDING_CLIENT_FRAMES_PURPOSE = "cumulus standing cluster client frames v1";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final byte[] bytes;

    private RunSecret(byte[] bytes) {
        this.bytes = bytes;
    }

    /** A fresh secret for a new run. */
    public static RunSecret generate() {
        byte[] b = new byte[LENGTH_BYTES];
        RANDOM.nextBytes(b);
        return new RunSecret(b);
    }

    /** The line a launcher writes first on a node's stdin (with a newline after it). */
    public String line() {
        return LINE_PREFIX + Base64.getEncoder().encodeToString(bytes);
    }

    /**
     * Reads {@link #line()}'s form.
     *
     * @throws CumulusException when the line is not a secret's line (the message never repeats the line)
     */
    public static RunSecret parseLine(String line) {
        if (line == null || !line.startsWith(LINE_PREFIX)) {
            throw new CumulusException("the first line on this node's stdin is not the run's secret; nodes of a run "
                + "are started by 'cumulus run', which writes it there");
        }
        byte[] b;
        try {
            b = Base64.getDecoder().decode(line.substring(LINE_PREFIX.length()).strip());
        } catch (IllegalArgumentException e) {
            b = new byte[0];
        }
        if (b.length != LENGTH_BYTES) {
            throw new CumulusException("the run's secret on this node's stdin is malformed (not " + LENGTH_BYTES
                + " bytes in base64)");
        }
        return new RunSecret(b);
    }

    /**
     * The key for {@code purpose} (a label naming what the key is for, e.g. {@code "cumulus frame mac"}), of
     * {@code lengthBytes} bytes, as a key of {@code algorithm}: HKDF-SHA256 of the secret, info = the label.
     */
    public SecretKey key(String purpose, String algorithm, int lengthBytes) {
        try {
            KDF hkdf = KDF.getInstance("HKDF-SHA256");
            return hkdf.deriveKey(algorithm, HKDFParameterSpec.ofExtract()
                .addIKM(bytes)
                .thenExpand(purpose.getBytes(StandardCharsets.UTF_8), lengthBytes));
        } catch (GeneralSecurityException e) {
            throw new CumulusException("this JDK cannot derive the run's keys (HKDF-SHA256): " + e.getMessage(), e);
        }
    }

    /** A secret of its own derived for {@code purpose} (a standing cluster's clients' frames), never this one. */
    public RunSecret derived(String purpose) {
        return new RunSecret(keyBytes(purpose));
    }

    /**
     * The secret of {@code bytes} ({@link #LENGTH_BYTES} of them), as a state file keeps a derived one.
     *
     * @throws CumulusException for another length
     */
    public static RunSecret of(byte[] bytes) {
        if (bytes == null || bytes.length != LENGTH_BYTES) {
            throw new CumulusException("a secret has " + LENGTH_BYTES + " bytes");
        }
        return new RunSecret(bytes.clone());
    }

    /** {@link #key}'s bytes, for a module that has no access to this class (the profiler's live lines). */
    public byte[] keyBytes(String purpose) {
        return key(purpose, "HmacSHA256", 32).getEncoded();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunSecret other && java.security.MessageDigest.isEqual(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        return "RunSecret[hidden]";
    }
}
