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

    /**
     * The names of {@link #named} ({@code cumulus-bench-…}) this process made: those with its id between dashes, as
     * the bench names its drivers' and temporary directories. Benchmarks other processes run at the same time make and
     * delete theirs meanwhile: a check for what a run left behind compares these.
     */
    public static Set<String> ofThisProcess() throws IOException {
        String pid = Long.toString(ProcessHandle.current().pid());
        Set<String> names = named("cumulus-bench-");
        names.removeIf(n -> !List.of(n.split("-")).contains(pid));
        return names;
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
