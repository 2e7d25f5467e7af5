package dev.cumulus.cli.ship;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/** SHA-256 content hashes as 64 lower-case hex digits: the names of shipped classpath entries. */
public final class ContentHash {
    private static final Pattern HEX64 = Pattern.compile("[0-9a-f]{64}");

    private ContentHash() {
    }

    /** A new SHA-256 digest (every JDK has it). */
    static MessageDigest digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JDK has no SHA-256", e);
        }
    }

    /** The hash of {@code file}'s bytes. */
    public static String of(Path file) throws IOException {
        MessageDigest d = digest();
        byte[] buf = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            int n;
            while ((n = in.read(buf)) > 0) {
                d.update(buf, 0, n);
            }
        }
        return hex(d);
    }

    static String hex(MessageDigest d) {
        return HexFormat.of().formatHex(d.digest());
    }

    /** Whether {@code s} has the form of a hash (so it is safe as a file name). */
    public static boolean isHash(String s) {
        return s != null && HEX64.matcher(s).matches();
    }
}
