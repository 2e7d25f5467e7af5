package dev.cumulus.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * CPU times of a process and of its threads as Linux's {@code /proc/PID/stat} and {@code /proc/PID/task/TID/stat} give
 * them (user + system, in nanoseconds). Every method answers {@code null} or nothing for a process that is gone, or
 * where there is no {@code /proc} (then the bench prints no CPU figures).
 */
public final class ProcStat {
    /** Linux counts process times in USER_HZ ticks: 100 per second, fixed by its ABI on every architecture. */
    static final long TICK_NS = 10_000_000L;
    private static final Path PROC = Path.of("/proc");

    private ProcStat() {
    }

    /**
     * The times of process {@code pid}: {@code [own user+system, reaped children's user+system]} in ns, or null when
     * it is gone or a zombie (its children's times then no longer change), or there is no {@code /proc}.
     */
    static long[] times(long pid) {
        String[] f = fields(PROC.resolve(Long.toString(pid)).resolve("stat"));
        if (f == null || f[0].equals("Z") || f[0].equals("X")) {
            return null;
        }
        // after "pid (comm)": state is field 3, utime 14, stime 15, cutime 16, cstime 17 (proc(5)); f[0] is field 3
        return new long[] {(Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NS,
            (Long.parseLong(f[13]) + Long.parseLong(f[14])) * TICK_NS};
    }

    /** Whether process {@code pid} still has a {@code /proc} entry (running, or exited but not reaped). */
    static boolean exists(long pid) {
        return Files.exists(PROC.resolve(Long.toString(pid)));
    }

    /** One thread's name (Linux keeps its first 15 characters) and user+system time. */
    record ThreadTime(String name, long cpuNs) {
    }

    /**
     * Process {@code pid}'s threads by thread id, each with its name and user+system time in ns. Empty when the process
     * is gone; a thread that ends while it is read is left out.
     */
    static Map<Long, ThreadTime> threads(long pid) {
        Map<Long, ThreadTime> byId = new HashMap<>();
        Path tasks = PROC.resolve(Long.toString(pid)).resolve("task");
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
            for (Path task : ds) {
                String text = read(task.resolve("stat"));
                String[] f = text == null ? null : split(text);
                if (f == null) {
                    continue;
                }
                String name = text.substring(text.indexOf('(') + 1, text.lastIndexOf(')'));
                byId.put(Long.parseLong(task.getFileName().toString()),
                    new ThreadTime(name, (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NS));
            }
        } catch (IOException | RuntimeException e) {
            // the process ended while it was read: what was read stands
        }
        return byId;
    }

    private static String[] fields(Path stat) {
        String text = read(stat);
        return text == null ? null : split(text);
    }

    /** The fields after {@code "pid (comm) "}: the name may hold spaces and parentheses, so split after its last ')'. */
    private static String[] split(String text) {
        int close = text.lastIndexOf(')');
        if (close < 0) {
            return null;
        }
        String[] f = text.substring(close + 1).trim().split(" ");
        return f.length > 14 ? f : null;
    }

    private static String read(Path stat) {
        try {
            return Files.readString(stat, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
