package dev.cumulus.cli.standing;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.service.ClientCredential;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * {@code cumulus cluster stop NAME}: asks the keeper to stop (SIGTERM: it stops its servers and removes the driver's
 * directory), kills it after the grace period, then removes whatever a dead keeper left (servers still alive, the
 * driver's directory) and the cluster's state file and directory, and the credentials granted into their default place.
 * Works on stale clusters too.
 */
public final class ClusterStop {
    /** How long the keeper has to stop its servers before it is killed. */
    public static final Duration GRACE = Duration.ofSeconds(20);

    private ClusterStop() {
    }

    /**
     * @return true when there was something to stop
     * @throws CumulusException when the keeper does not end even when killed
     */
    public static boolean stop(ClusterRegistry registry, String name, PrintStream err) {
        Optional<ClusterRecord> found = registry.read(name);
        if (found.isEmpty()) {
            boolean leftovers = Files.exists(registry.clusterDirectoryPath(name));
            registry.remove(name);
            return leftovers;
        }
        ClusterRecord r = found.get();
        Optional<ProcessHandle> keeper = ProcessHandle.of(r.keeperPid()).filter(ProcessHandle::isAlive);
        if (keeper.isPresent()) {
            ProcessHandle k = keeper.get();
            k.destroy();
            if (!awaitExit(k, GRACE)) {
                err.println("cumulus: the keeper of cluster " + name + " (pid " + k.pid() + ") did not stop within "
                    + GRACE.toSeconds() + "s; killing it");
                k.destroyForcibly();
                if (!awaitExit(k, Duration.ofSeconds(5))) {
                    throw new CumulusException("the keeper of cluster " + name + " (pid " + k.pid()
                        + ") does not end even after SIGKILL; the state file " + registry.stateFile(name)
                        + " is kept");
                }
            }
        }
        for (long pid : r.serverPids()) {
            ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(KeeperProcess::isServer).ifPresent(p -> {
                p.destroyForcibly();
                awaitExit(p, Duration.ofSeconds(5));
            });
        }
        ClusterRegistry.deleteTree(Path.of(r.driverDir()));
        registry.remove(name);
        // the credentials granted for this start are worthless now (a new start derives new keys)
        ClusterRegistry.deleteTree(ClientCredential.defaultDir(registry.configDir(), name));
        return true;
    }

    /** Whether {@code p} has ended within {@code d}. */
    static boolean awaitExit(ProcessHandle p, Duration d) {
        try {
            p.onExit().get(d.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return !p.isAlive();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !p.isAlive();
        }
    }
}
