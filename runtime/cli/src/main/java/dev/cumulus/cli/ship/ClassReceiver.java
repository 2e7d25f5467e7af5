package dev.cumulus.cli.ship;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.nio.file.Path;

/**
 * The host agent's end of class shipping ({@link ShipProtocol}): reads the manifest, asks for the entries its
 * {@link ClassCache} lacks, stores each after checking it, and says whether all arrived.
 */
public final class ClassReceiver {
    private ClassReceiver() {
    }

    /**
     * Answers one manifest whose first line ({@code classes COUNT}) has been read.
     *
     * @param first the {@code classes COUNT} line
     * @param cache opens the cache (called once; its failure is sent to the launcher as an error)
     * @throws IOException when the launcher breaks the protocol or the stream ends (the agent cannot go on)
     */
    public static void receive(String first, InputStream in, OutputStream out, Supplier<CacheOrError> cache)
        throws IOException {
        String[] head = first.split(" ");
        if (head.length != 2 || !head[0].equals(ShipProtocol.CLASSES)) {
            throw new IOException("'" + first + "' is not a manifest's first line");
        }
        int count;
        try {
            count = Integer.parseInt(head[1]);
        } catch (NumberFormatException e) {
            throw new IOException("'" + first + "' has no entry count");
        }
        if (count < 0 || count > ClassManifest.MAX_ENTRIES) {
            throw new IOException("a manifest of " + count + " entries (at most " + ClassManifest.MAX_ENTRIES + ")");
        }
        Map<String, Long> lengths = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            String line = ShipProtocol.expectLine(in, "a manifest entry");
            String[] f = line.split(" ");
            if (f.length != 2) {
                throw new IOException("'" + line + "' is not 'HASH LENGTH'");
            }
            lengths.putIfAbsent(ShipProtocol.hash(f[0], line), ShipProtocol.length(f[1]));
        }
        CacheOrError opened = cache.get();
        if (opened.error() != null) {
            ShipProtocol.writeLine(out, ShipProtocol.ERROR + " " + opened.error());
            out.flush();
            return;
        }
        ClassCache c = opened.cache();
        List<String> wanted = new ArrayList<>();
        ShipProtocol.writeLine(out, ShipProtocol.CACHE + " " + c.directory());
        for (String hash : lengths.keySet()) {
            if (!c.has(hash)) {
                wanted.add(hash);
                ShipProtocol.writeLine(out, ShipProtocol.WANT + " " + hash);
            }
        }
        ShipProtocol.writeLine(out, ShipProtocol.END);
        out.flush();
        List<String> bad = new ArrayList<>();
        for (String hash : wanted) {
            String line = ShipProtocol.expectLine(in, "entry " + hash);
            String[] f = line.split(" ");
            if (f.length != 3 || !f[0].equals(ShipProtocol.ENTRY) || !f[1].equals(hash)
                || ShipProtocol.length(f[2]) != lengths.get(hash)) {
                throw new IOException("'" + line + "' where 'entry " + hash + " " + lengths.get(hash)
                    + "' was expected");
            }
            String why = c.store(hash, lengths.get(hash), in);
            if (why != null) {
                bad.add(why);
            }
        }
        ShipProtocol.writeLine(out, bad.isEmpty() ? ShipProtocol.STORED
            : ShipProtocol.ERROR + " " + String.join("; ", bad) + " (changed on the way; nothing of it was cached)");
        out.flush();
    }

    /**
     * The cache, or why it cannot be used.
     *
     * @param cache the opened cache, or null
     * @param error a message for the launcher, or null
     */
    public record CacheOrError(ClassCache cache, String error) {
        /** Opens the default cache ({@link ClassCache#defaultDirectory()}). */
        public static CacheOrError openDefault() {
            Path dir = ClassCache.defaultDirectory();
            try {
                return new CacheOrError(ClassCache.open(dir), null);
            } catch (IOException | RuntimeException e) {
                return new CacheOrError(null, "cannot use the class cache " + dir + ": " + e.getMessage());
            }
        }
    }
}
