package dev.cumulus.lsp.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.charset.MalformedInputException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Java sources of the project: every {@code .java} file under the root (skipping build output, hidden folders
 * and {@code node_modules}), with the editor's text of open documents in place of the disk text. All documents are
 * compiled together, because a cloud's facts depend on other files (remote interfaces, overrides, callers).
 *
 * <p>Documents are keyed by a normalized {@code file:} URI ({@link #normalize}); the client's own spelling of an open
 * document's URI is kept for publishing. Thread-safe: the LSP thread updates open documents, the analysis thread
 * reads {@link #sources()}.
 */
public final class Workspace {
    private static final Set<String> SKIPPED = Set.of("target", "build", "out", "bin", "node_modules");

    /** An open document: the client's URI, its version and text. */
    public record OpenDocument(String clientUri, int version, String text) {
    }

    private record DiskText(long modified, long size, String text) {
    }

    private final Path root;
    private final Map<String, OpenDocument> open = new ConcurrentHashMap<>();
    private final Map<String, DiskText> disk = new ConcurrentHashMap<>();
    private volatile boolean rescan = true;

    /** @param root the workspace folder, or {@code null} for open documents only */
    public Workspace(Path root) {
        this.root = root == null ? null : root.toAbsolutePath().normalize();
    }

    public Path root() {
        return root;
    }

    /** A canonical spelling of a file URI (so {@code file:/a} and {@code file:///a} are one key). */
    public static String normalize(String uri) {
        try {
            return pathOf(uri).toUri().toString();
        } catch (RuntimeException e) {
            return uri;
        }
    }

    /** The file path of a {@code file:} URI. */
    public static Path pathOf(String uri) {
        return Path.of(URI.create(uri)).toAbsolutePath().normalize();
    }

    public void open(String clientUri, int version, String text) {
        open.put(normalize(clientUri), new OpenDocument(clientUri, version, text));
    }

    public void change(String clientUri, int version, String text) {
        open.put(normalize(clientUri), new OpenDocument(clientUri, version, text));
    }

    public void close(String clientUri) {
        open.remove(normalize(clientUri));
        rescan = true;
    }

    /** Marks the disk copy as possibly changed (after a save or a file-watch event). */
    public void diskChanged() {
        rescan = true;
    }

    public OpenDocument openDocument(String uri) {
        return open.get(normalize(uri));
    }

    public Map<String, OpenDocument> openDocuments() {
        return Map.copyOf(open);
    }

    /** The text of every source (normalized uri to text): disk files, overridden by open documents. */
    public Map<String, String> sources() {
        return sources(openDocuments());
    }

    /** Like {@link #sources()}, with the given view of the open documents (so texts and versions agree). */
    public Map<String, String> sources(Map<String, OpenDocument> open) {
        Map<String, String> out = new LinkedHashMap<>();
        if (root != null) {
            if (rescan) {
                rescan = false;
                scanDisk();
            }
            disk.forEach((uri, d) -> out.put(uri, d.text()));
        }
        open.forEach((uri, d) -> {
            if (uri.endsWith(".java")) {
                out.put(uri, d.text());
            }
        });
        return out;
    }

    private void scanDisk() {
        Map<String, DiskText> seen = new LinkedHashMap<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                    String n = dir.getFileName() == null ? "" : dir.getFileName().toString();
                    if (!dir.equals(root) && (n.startsWith(".") || SKIPPED.contains(n))) {
                        return FileVisitResult.SKIP_SUBTREE;
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                    if (file.toString().endsWith(".java") && attrs.isRegularFile()) {
                        String uri = file.toUri().toString();
                        DiskText old = disk.get(uri);
                        long m = attrs.lastModifiedTime().toMillis();
                        if (old != null && old.modified() == m && old.size() == attrs.size()) {
                            seen.put(uri, old);
                        } else {
                            try {
                                seen.put(uri, new DiskText(m, attrs.size(), Files.readString(file, StandardCharsets.UTF_8)));
                            } catch (MalformedInputException e) {
                                // not UTF-8: skip the file rather than guess its encoding
                            } catch (IOException e) {
                                // vanished or unreadable between listing and reading: skip it
                            }
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) {
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root, e);
        }
        disk.clear();
        disk.putAll(seen);
    }
}
