package dev.cumulus.cli.standing;

import dev.cumulus.cli.launch.LaunchContext;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Where {@code cumulus cluster start --hosts FILE} puts a standing cluster's servers, as {@code cumulus run --hosts}
 * puts nodes: the hosts file, extra ssh options, this host's address for the other hosts and the servers' first UDP
 * port. {@code null} in its place means every server on this host.
 *
 * @param file     the hosts file (absolute)
 * @param sshArgs  extra ssh options, or null
 * @param bind     this host's address for the servers on other hosts (and the clients' endpoints), or null: the
 *                 address their ssh servers see
 * @param basePort server {@code i} listens on UDP port {@code basePort + i} of its host
 */
public record ServerHosts(Path file, String sshArgs, String bind, int basePort) {
    public ServerHosts {
        file = file.toAbsolutePath().normalize();
    }

    /** Applies these to the launch of the servers. */
    LaunchContext applyTo(LaunchContext ctx) {
        return ctx.hostsFile(file).sshArgs(sshArgs).bind(bind).basePort(basePort);
    }

    /** The options of {@code cumulus cluster serve} that say the same. */
    List<String> args() {
        List<String> a = new ArrayList<>(List.of("--hosts", file.toString(), "--base-port", Integer.toString(basePort)));
        if (sshArgs != null) {
            a.add("--ssh=" + sshArgs);
        }
        if (bind != null) {
            a.add("--bind=" + bind);
        }
        return a;
    }
}
