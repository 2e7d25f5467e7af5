package dev.cumulus.bench;

import dev.cumulus.cli.launch.HostGroup;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The hosts of {@code cumulus bench --hosts FILE}: measured process {@code i} (ours and every peer's) runs on the host
 * whose slot it takes, as {@code cumulus run --hosts} places node {@code i}, started over ssh through the launcher's
 * own host agents ({@link HostGroup}). The hosts must see this JDK and the bench module's classpath at the same paths
 * (a shared file system); each host's {@code /tmp} and {@code /dev/shm} may be its own.
 *
 * <p>Ports on each host, for process {@code i}: {@link #OURS_PORT}{@code + i} (a Cumulus node's UDP endpoint),
 * {@link #AERON_PORT}{@code + i} (the raw Aeron peer's), {@link #JGROUPS_PORT}{@code + i} (a JGroups member's TCP
 * port). The UDP ones are checked free on every host before anything starts. The blocking UDP and RMI peers take
 * ports the system picks.
 */
public final class BenchHosts implements AutoCloseable {
    /** The first UDP port of the Cumulus nodes. */
    public static final int OURS_PORT = 40400;
    /** The first UDP port of the raw Aeron peer. */
    public static final int AERON_PORT = OURS_PORT + 32;
    /** The first TCP port of the JGroups members. */
    public static final int JGROUPS_PORT = OURS_PORT + 64;
    /** The most processes one measurement may place (the ports of one kind must not overlap the next kind's). */
    public static final int MAX_PROCESSES = 32;

    /** Stream ids of one measurement lie in [base, base + {@value #STREAMS_PER_MEASUREMENT}). */
    static final int STREAMS_PER_MEASUREMENT = 1000;

    private final Path file;
    private final HostGroup group;
    private int measurements;

    private BenchHosts(Path file, HostGroup group) {
        this.file = file;
        this.group = group;
    }

    /**
     * Opens the hosts of {@code file} for up to {@code processes} processes: starts a host agent on each other host.
     *
     * @throws dev.cumulus.cli.launch.LaunchException for a bad file, too few slots or a host that cannot take part
     */
    public static BenchHosts open(Path file, String sshArgs, int processes, PrintStream err) {
        if (processes > MAX_PROCESSES) {
            throw new IllegalArgumentException("at most " + MAX_PROCESSES + " processes over --hosts, not "
                + processes);
        }
        return new BenchHosts(file, HostGroup.open(file, sshArgs, processes, List.of(OURS_PORT, AERON_PORT), err));
    }

    /** How many processes the hosts can take. */
    public int processes() {
        return group.processes();
    }

    /** The run id every Cumulus node of the bench gets (its host agent stops what is left of them). */
    public String runId() {
        return group.runId();
    }

    /**
     * The first Aeron stream id of the next measurement. The hosts' drivers serve every measurement, and a driver keeps
     * a subscription of a process that ended without closing it (a peer stopped by the end of its stdin) until its
     * client times out; a later process on the same stream would share its image, whose flow control waits for the
     * dead subscriber. So each measurement takes streams of its own.
     */
    public synchronized int nextStreamBase() {
        return 10_000 + STREAMS_PER_MEASUREMENT * measurements++;
    }

    /** The property every bench process carries, so its host's agent can stop it. */
    String mark() {
        return group.mark();
    }

    /** Process {@code i}'s host's address for the other hosts (IPv6 in brackets, as in an Aeron endpoint). */
    public String address(int i) {
        return group.place(i).address();
    }

    /** {@link #address} without brackets, for a socket address. */
    public String bindAddress(int i) {
        return address(i).replace("[", "").replace("]", "");
    }

    /** The media driver directory on process {@code i}'s host, or null when that is this host. */
    String driverDir(int i) {
        return group.place(i).driverDir();
    }

    /** The run directory on process {@code i}'s host, or null when that is this host. */
    Path runDir(int i) {
        String d = group.place(i).runDir();
        return d == null ? null : Path.of(d);
    }

    boolean local(int i) {
        return group.place(i).local();
    }

    Process start(int i, List<String> command) throws IOException {
        return group.start(i, command);
    }

    /** The header line: the file, and each host's address with the processes it holds. */
    public String describe() {
        return "hosts: " + file + ": " + group.describe();
    }

    /** Ends the host agents: they stop what is left of the bench's processes and delete their directories. */
    @Override
    public void close() {
        group.close();
    }
}
