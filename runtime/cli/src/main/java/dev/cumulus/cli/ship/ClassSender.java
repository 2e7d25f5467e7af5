package dev.cumulus.cli.ship;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The launcher's end of class shipping ({@link ShipProtocol}) to one host: sends the manifest, then the entries the
 * host asks for, and returns where the host keeps them.
 */
public final class ClassSender {
    /** From this many bytes to send on, a progress line names the amount and the host. */
    public static final long PROGRESS_BYTES = 4L << 20;

    private ClassSender() {
    }

    /**
     * What one host got.
     *
     * @param classpath     the program's classpath on that host: its cache files, in the manifest's order
     * @param sentEntries   how many entries were sent (the host lacked them)
     * @param sentBytes     their bytes together
     */
    public record Shipment(List<String> classpath, int sentEntries, long sentBytes) {
        public Shipment {
            classpath = List.copyOf(classpath);
        }
    }

    /**
     * Ships {@code manifest} to {@code host}'s agent.
     *
     * @param progress receives a line ({@code shipping 12.0 MiB of classes to HOST …}) before a large transfer
     * @throws IOException with a message for the user when the host refuses, breaks the protocol, or the stream ends
     */
    public static Shipment ship(ClassManifest manifest, String host, InputStream fromHost, OutputStream toHost,
        Consumer<String> progress) throws IOException {
        Map<String, ClassManifest.Entry> byHash = new HashMap<>();
        ShipProtocol.writeLine(toHost, ShipProtocol.CLASSES + " " + manifest.entries().size());
        for (ClassManifest.Entry e : manifest.entries()) {
            ShipProtocol.writeLine(toHost, e.hash() + " " + e.lengthBytes());
            byHash.putIfAbsent(e.hash(), e);
        }
        toHost.flush();
        String line = ShipProtocol.expectLine(fromHost, "the host's cache directory");
        if (line.startsWith(ShipProtocol.ERROR + " ")) {
            throw new IOException(line.substring(ShipProtocol.ERROR.length() + 1));
        }
        if (!line.startsWith(ShipProtocol.CACHE + " ")) {
            throw new IOException("the host said '" + line + "' where its cache directory was expected");
        }
        String cacheDir = line.substring(ShipProtocol.CACHE.length() + 1);
        List<ClassManifest.Entry> wanted = new ArrayList<>();
        while (!(line = ShipProtocol.expectLine(fromHost, "'want HASH' or 'end'")).equals(ShipProtocol.END)) {
            String[] f = line.split(" ");
            ClassManifest.Entry e = f.length == 2 && f[0].equals(ShipProtocol.WANT) ? byHash.get(f[1]) : null;
            if (e == null) {
                throw new IOException("the host said '" + line + "' where 'want HASH' of a manifest entry was "
                    + "expected");
            }
            wanted.add(e);
        }
        long bytes = wanted.stream().mapToLong(ClassManifest.Entry::lengthBytes).sum();
        if (bytes >= PROGRESS_BYTES) {
            progress.accept("shipping " + mebibytes(bytes) + " of classes to " + host + " …");
        }
        for (ClassManifest.Entry e : wanted) {
            ShipProtocol.writeLine(toHost, ShipProtocol.ENTRY + " " + e.hash() + " " + e.lengthBytes());
            long copied = Files.copy(e.file(), toHost);
            if (copied != e.lengthBytes()) {
                throw new IOException(e.source() + " changed while it was shipped (" + copied + " bytes, not "
                    + e.lengthBytes() + "); run again");
            }
        }
        toHost.flush();
        line = ShipProtocol.expectLine(fromHost, "'stored'");
        if (line.startsWith(ShipProtocol.ERROR + " ")) {
            throw new IOException(line.substring(ShipProtocol.ERROR.length() + 1));
        }
        if (!line.equals(ShipProtocol.STORED)) {
            throw new IOException("the host said '" + line + "' where 'stored' was expected");
        }
        List<String> classpath = new ArrayList<>();
        for (ClassManifest.Entry e : manifest.entries()) {
            classpath.add(cacheDir + "/" + e.hash() + ".jar");
        }
        return new Shipment(classpath, wanted.size(), bytes);
    }

    /** {@code 12.3 MiB}. */
    static String mebibytes(long bytes) {
        return String.format(java.util.Locale.ROOT, "%.1f MiB", bytes / (double) (1L << 20));
    }
}
