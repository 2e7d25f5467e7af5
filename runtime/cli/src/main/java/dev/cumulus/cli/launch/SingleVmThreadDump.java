package dev.cumulus.cli.launch;

import dev.cumulus.cli.standing.FileWait;
import dev.cumulus.internal.singlevm.DumpSignal;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Asks node 0 of a single-VM run for its cluster thread dump (every node's program threads and the cluster monitors
 * they hold and wait for, with their homes; node 0 prints it) by sending its process {@code SIGUSR1}, and waits until
 * the dump is complete (node 0 writes {@link DumpSignal#FILE} into the run directory after printing it). Only for a
 * node 0 on this host.
 */
final class SingleVmThreadDump {
    /** How long the launcher waits for the dump before it stops the nodes all the same. */
    static final Duration WAIT = Duration.ofSeconds(20);

    private SingleVmThreadDump() {
    }

    /** True once the dump is printed; false (saying why on {@code err}) when it could not be had. */
    static boolean request(NodeProcess node0, Path runDir, PrintStream err) {
        if (node0.host() != null) {
            err.println("cumulus: no thread dump: node 0 runs on host " + node0.host()
                + " (the dump is asked for with a signal, on this host only)");
            return false;
        }
        if (!node0.isAlive()) {
            return false;
        }
        Path file = runDir.resolve(DumpSignal.FILE);
        try {
            Files.deleteIfExists(file);
            Process kill = new ProcessBuilder("kill", "-USR1", Long.toString(node0.process().pid()))
                .redirectErrorStream(true).start();
            if (kill.waitFor() != 0) {
                err.println("cumulus: no thread dump: 'kill -USR1 " + node0.process().pid() + "' failed: "
                    + new String(kill.getInputStream().readAllBytes()).trim());
                return false;
            }
        } catch (IOException e) {
            err.println("cumulus: no thread dump: could not signal node 0: " + e.getMessage());
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        boolean done = FileWait.await(file, WAIT, () -> !node0.isAlive());
        if (!done) {
            err.println("cumulus: node 0 gave no thread dump within " + WAIT.toSeconds() + "s");
        }
        return done;
    }
}
