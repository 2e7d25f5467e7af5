package dev.cumulus.cli.ship;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * The shipping protocol's words and framing, on the host agent's stdin (launcher to host) and stdout (host to
 * launcher). Lines end with {@code \n} and are at most {@value #MAX_LINE} characters; an entry's bytes follow its line
 * and are exactly as long as the line says.
 *
 * <pre>
 * launcher: classes COUNT              then COUNT lines: HASH LENGTH          (COUNT ≤ ClassManifest.MAX_ENTRIES)
 * host:     cache DIR                  the host's cache directory
 *           want HASH                  for each entry the cache lacks (once per hash)
 *           end
 * launcher: entry HASH LENGTH + bytes  for each wanted entry, in the order asked
 * host:     stored                     every entry checked and in the cache
 *        or error MESSAGE              (also in place of "cache DIR" when the cache cannot be used)
 * </pre>
 */
public final class ShipProtocol {
    public static final String CLASSES = "classes";
    static final String CACHE = "cache";
    static final String WANT = "want";
    static final String END = "end";
    static final String ENTRY = "entry";
    static final String STORED = "stored";
    static final String ERROR = "error";
    /** The longest line either side accepts. */
    static final int MAX_LINE = 8192;

    private ShipProtocol() {
    }

    /**
     * A line without its end, or null when the stream ended before any character of it.
     *
     * @throws IOException when the line is longer than {@link #MAX_LINE} or the stream ends inside it
     */
    static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                if (sb.isEmpty()) {
                    return null;
                }
                throw new IOException("the stream ended inside a line ('" + sb + "')");
            }
            if (sb.length() >= MAX_LINE) {
                throw new IOException("a line longer than " + MAX_LINE + " characters");
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    /** A line that must be there: the other side ending here is an error. */
    static String expectLine(InputStream in, String what) throws IOException {
        String line = readLine(in);
        if (line == null) {
            throw new IOException("the other side ended where " + what + " was expected");
        }
        return line;
    }

    static void writeLine(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    /** {@code LENGTH} as a number in 0..{@link ClassManifest#MAX_ENTRY_BYTES}. */
    static long length(String word) throws IOException {
        long n;
        try {
            n = Long.parseLong(word);
        } catch (NumberFormatException e) {
            throw new IOException("'" + word + "' is not a length");
        }
        if (n < 0 || n > ClassManifest.MAX_ENTRY_BYTES) {
            throw new IOException("length " + n + " is outside 0.." + ClassManifest.MAX_ENTRY_BYTES);
        }
        return n;
    }

    /** {@code word} when it is a hash, else an error naming {@code line}. */
    static String hash(String word, String line) throws IOException {
        if (!ContentHash.isHash(word)) {
            throw new IOException("'" + line + "' does not name a SHA-256 hash");
        }
        return word;
    }
}
