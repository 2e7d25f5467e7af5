package dev.cumulus.cli.launch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * How the launcher runs a command on another host: OpenSSH's {@code ssh} with the user's own keys and configuration,
 * never asking for a password ({@code BatchMode=yes}), no terminal ({@code -T}). The user's extra options
 * ({@code --ssh ARGS}) come first, so they win over the defaults here (ssh keeps the first value of an option).
 *
 * <p>With a control directory, the sessions to one host share one connection (OpenSSH's connection multiplexing): the
 * first session (the host agent's) opens it, the nodes' sessions ride on it. A host then sees one login per run, and
 * starting many nodes there neither repeats the handshake nor runs into sshd's limit on simultaneous logins
 * ({@code MaxStartups}). One connection carries at most {@value #SHARED_SESSIONS} sessions (sshd's default
 * {@code MaxSessions}); the launcher gives further sessions to one host connections of their own
 * ({@link #unshared()}).
 *
 * @param userOptions the user's extra ssh arguments, split at white space
 * @param controlDir  an owner-only directory for the shared connections' sockets, or null for a connection each
 */
record Ssh(List<String> userOptions, Path controlDir) implements HostReach {
    /** Seconds ssh waits for a host's TCP connection before it gives up. */
    static final int CONNECT_TIMEOUT_S = 10;
    /** Seconds between ssh's keep-alive probes of a silent connection, and how many may go unanswered. */
    static final int ALIVE_INTERVAL_S = 5;
    static final int ALIVE_COUNT = 3;
    /** Sessions one shared connection carries: sshd's default {@code MaxSessions}. */
    static final int SHARED_SESSIONS = 10;

    Ssh {
        userOptions = List.copyOf(userOptions);
    }

    /** {@code --ssh "ARGS"}: split at white space; null or blank for none. */
    static Ssh of(String args) {
        return new Ssh(args == null || args.isBlank() ? List.of() : List.of(args.trim().split("\\s+")), null);
    }

    /** These options, with the sessions to one host sharing a connection whose socket lies in {@code dir}. */
    Ssh sharingConnectionsIn(Path dir) {
        return new Ssh(userOptions, dir);
    }

    /** These options with a connection each. */
    Ssh unshared() {
        return new Ssh(userOptions, null);
    }

    /** The ssh command that runs {@code command} (each word quoted for the remote shell) on {@code host}. */
    @Override
    public List<String> command(String host, List<String> command) {
        return command(host, shellLine(command));
    }

    @Override
    public String explain(String host, int exitCode) {
        if (exitCode == 255) {
            return "ssh could not connect or log in (exit 255); check that 'ssh -o BatchMode=yes " + host + " true' "
                + "works without a password (keys, known_hosts, --ssh options)";
        }
        if (exitCode == 127 || exitCode == 126) {
            return "the host has no Cumulus installation at the launcher's paths (exit " + exitCode + "); --hosts "
                + "needs the Cumulus runtime installed at the same path on every host";
        }
        return null;
    }

    /** The ssh command that runs the shell line {@code line} on {@code host}. */
    @Override
    public List<String> shellCommand(String host, String line) {
        return command(host, line);
    }

    /** The ssh command that runs the shell line {@code line} on {@code host}. */
    List<String> command(String host, String line) {
        List<String> cmd = new ArrayList<>();
        cmd.add("ssh");
        cmd.addAll(userOptions);
        cmd.addAll(List.of("-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=" + CONNECT_TIMEOUT_S,
            // a host that drops off the network ends its sessions within ALIVE_INTERVAL_S * ALIVE_COUNT seconds,
            // instead of TCP's retransmission timeout (many minutes)
            "-o", "ServerAliveInterval=" + ALIVE_INTERVAL_S, "-o", "ServerAliveCountMax=" + ALIVE_COUNT));
        if (controlDir != null) {
            // %C: a hash of the connection's host, port and user, short enough for a socket path
            cmd.addAll(List.of("-o", "ControlMaster=auto", "-o", "ControlPath=" + controlDir.resolve("%C"), "-o",
                "ControlPersist=no"));
        }
        cmd.addAll(List.of("--", host, line));
        return cmd;
    }

    /** {@code exec} of the words, each quoted for a POSIX shell, so the command replaces the login shell. */
    static String shellLine(List<String> words) {
        StringBuilder sb = new StringBuilder("exec");
        for (String w : words) {
            sb.append(' ').append(quote(w));
        }
        return sb.toString();
    }

    /** {@code word} in single quotes, a single quote in it as {@code '\''}. */
    static String quote(String word) {
        return "'" + word.replace("'", "'\\''") + "'";
    }
}
