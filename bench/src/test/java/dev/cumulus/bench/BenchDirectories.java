package dev.cumulus.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** The Aeron and run directories benchmarks leave (the smoke tests check that none is left behind). */
public final class BenchDirectories {
    private BenchDirectories() {
    }

    /** Names in the driver root and the temp directory that start with {@code prefix} (e.g. "cumulus-bench-"). */
    public static Set<String> named(String prefix) throws IOException {
        Set<String> names = new TreeSet<>();
        for (Path root : List.of(ProcessSet.driverRoot(), Path.of(System.getProperty("java.io.tmpdir")))) {
            try (Stream<Path> s = Files.list(root)) {
                s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith(prefix)).forEach(names::add);
            }
        }
        return names;
    }
}
