package dev.cumulus.cli.ship;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A program's classpath as content: each entry's bytes (a jar as it is, a class directory packed by
 * {@link DirectoryJar}), named by their {@link ContentHash}, in classpath order. Entries that do not exist are left
 * out (the launcher has warned about them).
 *
 * @param entries the entries in classpath order
 */
public record ClassManifest(List<Entry> entries) {
    /** The most entries one manifest may list (the receiver refuses more). */
    public static final int MAX_ENTRIES = 4096;
    /** The largest entry the receiver accepts: 2 GiB. */
    public static final long MAX_ENTRY_BYTES = 2L << 30;

    /**
     * One classpath entry.
     *
     * @param hash        SHA-256 of {@code file}'s bytes
     * @param lengthBytes {@code file}'s length
     * @param file        the bytes to send: the jar itself, or a directory's packed jar
     * @param source      the classpath entry as the user gave it (for messages)
     */
    public record Entry(String hash, long lengthBytes, Path file, Path source) {
    }

    public ClassManifest {
        entries = List.copyOf(entries);
    }

    /**
     * The manifest of {@code classpath}; class directories are packed into {@code packDir} (which must exist).
     *
     * @throws IOException when an entry cannot be read or packed, or is larger than {@link #MAX_ENTRY_BYTES}
     */
    public static ClassManifest of(List<Path> classpath, Path packDir) throws IOException {
        if (classpath.size() > MAX_ENTRIES) {
            throw new IOException("the classpath has " + classpath.size() + " entries; at most " + MAX_ENTRIES
                + " can be shipped to other hosts (pack them into fewer jars)");
        }
        List<Entry> entries = new ArrayList<>();
        for (Path source : classpath) {
            Path file;
            if (Files.isDirectory(source)) {
                file = packDir.resolve("entry-" + entries.size() + ".jar");
                DirectoryJar.pack(source, file);
            } else if (Files.isRegularFile(source)) {
                file = source;
            } else {
                continue;
            }
            long length = Files.size(file);
            if (length > MAX_ENTRY_BYTES) {
                throw new IOException("classpath entry " + source + " is " + length + " bytes; at most "
                    + MAX_ENTRY_BYTES + " can be shipped to other hosts");
            }
            entries.add(new Entry(ContentHash.of(file), length, file, source));
        }
        return new ClassManifest(entries);
    }

    /** The entries' bytes together. */
    public long totalBytes() {
        return entries.stream().mapToLong(Entry::lengthBytes).sum();
    }
}
