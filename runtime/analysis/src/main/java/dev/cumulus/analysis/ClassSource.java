package dev.cumulus.analysis;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

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

    /**
     * Where a class's bytes come from, for messages about an unreadable class file: a file path or
     * {@code jar!/entry}. The default is the class file's name.
     */
    default String location(String internalName) {
        return internalName + ".class";
    }

    /** Classpath entries that could not be opened at all (a corrupt jar); each is reported as an error. */
    default List<UnreadableInput> unreadableEntries() {
        return List.of();
    }

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
     * open until {@link #close()}. Entries that do not exist are ignored; a jar that cannot be opened is left out and
     * listed by {@link #unreadableEntries()}. {@link #classBytes} throws {@link UncheckedIOException} naming the file
     * when a class file cannot be read.
     */
    static ClassSource classpath(List<Path> entries) {
        return new ClasspathSource(entries, Set.copyOf(entries));
    }

    /**
     * Like {@link #classpath(List)}, but only the classes of the {@code analysed} entries are listed by
     * {@link #allClassNames()} (and so analysed by {@link CloudAnalyzer#analyzeAll()}); the others are libraries,
     * read when analysed code reaches them, as the agent reads them through the class loader at run time.
     */
    static ClassSource classpath(List<Path> entries, Set<Path> analysed) {
        return new ClasspathSource(entries, Set.copyOf(analysed));
    }
}
