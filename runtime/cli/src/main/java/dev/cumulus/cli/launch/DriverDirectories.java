package dev.cumulus.cli.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The runs' media driver directories ({@code /dev/shm/cumulus-<runId>}): each records its launcher
 * ({@value #OWNER_FILE}: pid and start time), so a later run removes the directories of runs whose launcher is gone
 * (killed with SIGKILL, so its own clean-up never ran). A directory without that file is never touched (another
 * tool's, or one still being set up).
 */
public final class DriverDirectories {
    static final String OWNER_FILE = "cumulus-launcher.pid";
    static final String PREFIX = "cumulus-";

    private DriverDirectories() {
    }

    /** Records this process as the launcher that owns {@code dir}. */
    static void markOwner(Path dir) throws IOException {
        ProcessHandle self = ProcessHandle.current();
        String start = self.info().startInstant().map(Instant::toString).orElse("");
        Files.writeString(dir.resolve(OWNER_FILE), self.pid() + " " + start + "\n", StandardCharsets.UTF_8);
        dev.cumulus.internal.auth.OwnerOnly.restrict(dir.resolve(OWNER_FILE));
    }

    /** Deletes the driver directories under {@code root} whose launcher process is gone; says which on {@code err}. */
    static List<Path> removeStale(Path root, PrintStream err) {
        List<Path> removed = new ArrayList<>();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(root, PREFIX + "*")) {
            for (Path dir : dirs) {
                Path owner = dir.resolve(OWNER_FILE);
                if (!Files.isRegularFile(owner) || ownerAlive(owner)) {
                    continue;
                }
                deleteTree(dir);
                if (!Files.exists(dir)) {
                    removed.add(dir);
                    err.println("cumulus: removed " + dir + ", left by a run whose launcher is gone");
                }
            }
        } catch (IOException e) {
            // cannot list the root: nothing to clean up here
        }
        return removed;
    }

    /** True unless the recorded launcher is gone; an unreadable record counts as alive (never delete on a doubt). */
    private static boolean ownerAlive(Path owner) {
        String[] fields;
        try {
            fields = Files.readString(owner, StandardCharsets.UTF_8).trim().split(" ");
        } catch (IOException e) {
            return true;
        }
        long pid;
        try {
            pid = Long.parseLong(fields[0]);
        } catch (NumberFormatException e) {
            return true;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return false;
        }
        if (fields.length < 2 || fields[1].isEmpty()) {
            return true;
        }
        // the pid may have been reused: the same pid with another start time is another process
        return process.get().info().startInstant().map(Instant::toString).map(fields[1]::equals).orElse(true);
    }

    /**
     * Deletes {@code dir} and everything in it, as much as it can: a file that cannot be deleted stays, and so do the
     * directories above it. Returns whether {@code dir} is gone.
     */
    public static boolean deleteTree(Path dir) {
        if (Files.exists(dir)) {
            try (Stream<Path> s = Files.walk(dir)) {
                s.sorted(Comparator.reverseOrder()).forEach(p -> {
                    try {
                        Files.deleteIfExists(p);
                    } catch (IOException ignored) {
                        // stays, and the directories above it: the result says so
                    }
                });
            } catch (IOException ignored) {
                // what is left, the result says
            }
        }
        return !Files.exists(dir);
    }
}
