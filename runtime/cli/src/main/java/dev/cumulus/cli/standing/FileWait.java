package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Waits for a file to appear: woken by the directory's change events, and looking again at least every
 * {@link #LOOK_MS} for {@code giveUp} (a process that ended) and for events a watch service may miss.
 */
public final class FileWait {
    static final long LOOK_MS = 100;

    private FileWait() {
    }

    /**
     * @return true once {@code file} exists; false when {@code giveUp} says so or {@code timeout} passes first
     */
    public static boolean await(Path file, Duration timeout, BooleanSupplier giveUp) {
        long deadline = System.nanoTime() + timeout.toNanos();
        Path dir = file.toAbsolutePath().getParent();
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CumulusException("cannot create " + dir + ": " + e.getMessage(), e);
        }
        try (WatchService watch = FileSystems.getDefault().newWatchService()) {
            dir.register(watch, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            while (true) {
                if (Files.exists(file)) {
                    return true;
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || giveUp.getAsBoolean()) {
                    return Files.exists(file);
                }
                var key = watch.poll(Math.min(LOOK_MS, TimeUnit.NANOSECONDS.toMillis(left) + 1), TimeUnit.MILLISECONDS);
                if (key != null) {
                    key.pollEvents();
                    key.reset();
                }
            }
        } catch (IOException e) {
            throw new CumulusException("cannot watch " + dir + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Files.exists(file);
        }
    }
}
