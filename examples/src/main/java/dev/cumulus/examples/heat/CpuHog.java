package dev.cumulus.examples.heat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The load of the load-balancing demo: busy threads in one node's JVM, as if another job ran on that node's host.
 *
 * <p>When every node runs on one machine ({@code cumulus run --nodes N}), a hog in one JVM takes CPU from all nodes
 * alike. So the hog can also confine its own JVM to one CPU ({@code taskset -a -p -c CPU PID}, Linux): the node's
 * threads then share that CPU with the hog, as they would share a host of their own with another job, while the
 * other nodes keep the machine's other CPUs.
 */
final class CpuHog implements AutoCloseable {
    private final List<Thread> threads = new ArrayList<>();
    private volatile boolean stop;
    /** What {@link #confineToOneCpu} did, for the demo's output. */
    private String confinement = "not confined";
    /** Work done, read at the end so the loop cannot be optimised away. */
    private volatile long sink;

    /** Starts {@code count} busy threads (daemons, so they never keep the node alive). */
    CpuHog(int count) {
        for (int i = 0; i < count; i++) {
            threads.add(Thread.ofPlatform().daemon().name("cpu-hog-" + i).start(this::spin));
        }
    }

    private void spin() {
        long x = 1;
        while (!stop) {
            for (int i = 0; i < 1_000_000; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
        }
        sink = x;
    }

    /**
     * Confines this JVM's threads (the hog's and the node's) to CPU {@code cpu} with {@code taskset}; returns what
     * happened, in words. Does nothing on a machine with one CPU, or where {@code taskset} is missing or refuses.
     */
    String confineToOneCpu(int cpu) {
        if (Runtime.getRuntime().availableProcessors() < 2) {
            confinement = "not confined (this machine has one CPU)";
            return confinement;
        }
        long pid = ProcessHandle.current().pid();
        try {
            Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", Integer.toString(cpu), Long.toString(pid))
                .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            if (!p.waitFor(10, TimeUnit.SECONDS) || p.exitValue() != 0) {
                confinement = "not confined (taskset failed: " + out + ")";
            } else {
                confinement = "confined to CPU " + cpu + " with taskset";
            }
        } catch (IOException e) {
            confinement = "not confined (no taskset here: " + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            confinement = "not confined (interrupted)";
        }
        return confinement;
    }

    int threads() {
        return threads.size();
    }

    @Override
    public void close() {
        stop = true;
        for (Thread t : threads) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
