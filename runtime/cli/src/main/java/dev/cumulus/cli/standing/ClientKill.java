package dev.cumulus.cli.standing;

import java.time.Duration;
import java.util.Optional;

/**
 * The end of {@code cumulus kill NAME CLIENT} on the client's side: once every server put the client out, its process
 * (on the cluster's host, this user's) is asked to stop, and killed if it does not within {@link #GRACE}. Only a Java
 * process is stopped: a process id the OS gave to another program since is left alone.
 */
final class ClientKill {
    static final Duration GRACE = Duration.ofSeconds(10);

    private ClientKill() {
    }

    /** @return what happened to the process, for the command's output */
    static String stopProcess(long pid) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (p.isEmpty()) {
            return "its process " + pid + " had ended";
        }
        ProcessHandle h = p.get();
        boolean java = h.info().command().map(c -> c.endsWith("/java") || c.endsWith("java")).orElse(false);
        if (!java) {
            return "its process " + pid + " is not a Java program any more; left alone";
        }
        h.destroy();
        if (ClusterStop.awaitExit(h, GRACE)) {
            return "its process " + pid + " stopped";
        }
        h.destroyForcibly();
        return ClusterStop.awaitExit(h, Duration.ofSeconds(5))
            ? "its process " + pid + " was killed (it ignored SIGTERM for " + GRACE.toSeconds() + "s)"
            : "its process " + pid + " does not end even after SIGKILL";
    }
}
