package dev.cumulus.analysis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * {@link ClassSource#classpath(List)}: directories and jars in order, all or some of them analysed; jars that cannot
 * be opened are reported.
 */
final class ClasspathSource implements ClassSource {
    private record Jar(Path path, ZipFile zip) {
    }

    private final List<Object> order = new ArrayList<>(); // Path (directory) or Jar, in classpath order
    private final Set<Object> analysed = Collections.newSetFromMap(new IdentityHashMap<>()); // entries of order
    private final List<UnreadableInput> unreadable = new ArrayList<>();

    /** Classes are looked up in all entries; {@link #allClassNames()} lists those of the {@code analysed} ones. */
    ClasspathSource(List<Path> entries, Set<Path> analysedEntries) {
        for (Path p : entries) {
            if (Files.isDirectory(p)) {
                order.add(p);
                if (analysedEntries.contains(p)) {
                    analysed.add(p);
                }
            } else if (Files.isRegularFile(p)) {
                try {
                    Jar jar = new Jar(p, new ZipFile(p.toFile()));
                    order.add(jar);
                    if (analysedEntries.contains(p)) {
                        analysed.add(jar);
                    }
                } catch (IOException e) {
                    unreadable.add(new UnreadableInput(p.toString(), "not a readable jar or zip file ("
                            + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()) + ")"));
                }
            }
        }
    }

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
                } else if (o instanceof Jar(Path _, ZipFile z)) {
                    ZipEntry e = z.getEntry(rel);
                    if (e != null) {
                        try (InputStream in = z.getInputStream(e)) {
                            return Optional.of(in.readAllBytes());
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + location(o, rel) + ": " + e.getMessage(), e);
            }
        }
        return Optional.empty();
    }

    @Override
    public String location(String internalName) {
        String rel = internalName + ".class";
        for (Object o : order) {
            if (o instanceof Path dir && Files.isRegularFile(dir.resolve(rel))
                    || o instanceof Jar(Path _, ZipFile z) && z.getEntry(rel) != null) {
                return location(o, rel);
            }
        }
        return rel;
    }

    private static String location(Object entry, String rel) {
        return entry instanceof Path dir ? dir.resolve(rel).toString() : ((Jar) entry).path() + "!/" + rel;
    }

    @Override
    public List<UnreadableInput> unreadableEntries() {
        return List.copyOf(unreadable);
    }

    @Override
    public Stream<String> allClassNames() {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        for (Object o : order) {
            if (!analysed.contains(o)) {
                continue;
            }
            if (o instanceof Path dir) {
                try (Stream<Path> s = Files.walk(dir)) {
                    s.filter(f -> f.toString().endsWith(".class")).forEach(f -> {
                        String rel = dir.relativize(f).toString().replace(f.getFileSystem().getSeparator(), "/");
                        names.add(rel.substring(0, rel.length() - ".class".length()));
                    });
                } catch (IOException | UncheckedIOException e) {
                    throw new UncheckedIOException("cannot list " + dir, e instanceof IOException io ? io
                            : ((UncheckedIOException) e).getCause());
                }
            } else if (o instanceof Jar(Path _, ZipFile z)) {
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
        for (Object o : order) {
            if (o instanceof Jar(Path _, ZipFile z)) {
                try {
                    z.close();
                } catch (IOException ignored) {
                    // nothing useful to do; the source is being discarded
                }
            }
        }
    }
}
