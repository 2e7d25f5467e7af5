package dev.cumulus.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * Where the analyzer gets class files. Names are internal names ({@code dev/example/Foo}, {@code Outer$Inner}).
 * The analyzer only reads bytes; it never loads or initializes the classes.
 *
 * <p>Classes the source does not have are treated as unknown (not cloud, no fields, no methods), except JDK classes,
 * which the analyzer reads from the running JDK's own image when it needs their supertypes.
 */
public interface ClassSource extends AutoCloseable {

    /** The bytes of one class file, or empty if this source does not have it. */
    Optional<byte[]> classBytes(String internalName);

    /** Every class this source has; {@link CloudAnalyzer#analyzeAll()} analyses exactly these. */
    Stream<String> allClassNames();

    /** Releases open jar files. The default does nothing. */
    @Override
    default void close() {
    }

    /** Classes held in memory, keyed by internal name. The map is copied. */
    static ClassSource ofBytes(Map<String, byte[]> classes) {
        Map<String, byte[]> copy = new LinkedHashMap<>(classes);
        return new ClassSource() {
            @Override
            public Optional<byte[]> classBytes(String internalName) {
                return Optional.ofNullable(copy.get(internalName));
            }

            @Override
            public Stream<String> allClassNames() {
                return copy.keySet().stream();
            }
        };
    }

    /**
     * A classpath of directories and jar files, searched in order (the first entry that has a class wins). Jars stay
     * open until {@link #close()}. Entries that do not exist are ignored.
     *
     * @throws UncheckedIOException if a jar cannot be opened
     */
    static ClassSource classpath(List<Path> entries) {
        List<Path> dirs = new ArrayList<>();
        List<ZipFile> jars = new ArrayList<>();
        List<Object> order = new ArrayList<>();
        for (Path p : entries) {
            if (Files.isDirectory(p)) {
                dirs.add(p);
                order.add(p);
            } else if (Files.isRegularFile(p)) {
                try {
                    ZipFile z = new ZipFile(p.toFile());
                    jars.add(z);
                    order.add(z);
                } catch (IOException e) {
                    jars.forEach(j -> {
                        try {
                            j.close();
                        } catch (IOException ignored) {
                            // closing what we opened before reporting the real failure
                        }
                    });
                    throw new UncheckedIOException("cannot open classpath entry " + p, e);
                }
            }
        }
        return new ClassSource() {
            @Override
            public Optional<byte[]> classBytes(String internalName) {
                String rel = internalName + ".class";
                for (Object o : order) {
                    try {
                        if (o instanceof Path dir) {
                            Path f = dir.resolve(rel);
                            if (Files.isRegularFile(f)) {
                                return Optional.of(Files.readAllBytes(f));
                            }
                        } else if (o instanceof ZipFile z) {
                            ZipEntry e = z.getEntry(rel);
                            if (e != null) {
                                try (InputStream in = z.getInputStream(e)) {
                                    return Optional.of(in.readAllBytes());
                                }
                            }
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot read " + rel, e);
                    }
                }
                return Optional.empty();
            }

            @Override
            public Stream<String> allClassNames() {
                LinkedHashSet<String> names = new LinkedHashSet<>();
                for (Object o : order) {
                    if (o instanceof Path dir) {
                        try (Stream<Path> s = Files.walk(dir)) {
                            s.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                                String rel = dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
                                names.add(rel.substring(0, rel.length() - ".class".length()));
                            });
                        } catch (IOException e) {
                            throw new UncheckedIOException("cannot list " + dir, e);
                        }
                    } else if (o instanceof ZipFile z) {
                        z.stream().map(ZipEntry::getName)
                                .filter(n -> n.endsWith(".class") && !n.startsWith("META-INF/"))
                                .forEach(n -> names.add(n.substring(0, n.length() - ".class".length())));
                    }
                }
                names.removeIf(n -> n.endsWith("module-info") || n.endsWith("package-info"));
                return names.stream();
            }

            @Override
            public void close() {
                for (ZipFile z : jars) {
                    try {
                        z.close();
                    } catch (IOException ignored) {
                        // nothing useful to do; the source is being discarded
                    }
                }
            }
        };
    }
}
