package dev.cumulus.cli.launch;

import dev.cumulus.CumulusException;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * The hosts of a {@code --hosts} file for a program other than {@code cumulus run} that starts its own processes on
 * them: {@code cumulus bench --hosts}. Process {@code i} takes the {@code i}-th slot, as {@code cumulus run --hosts}
 * places node {@code i} ({@link HostsFile#place}). Every other host that holds a process gets a {@link HostAgent} for
 * the group's lifetime (through {@link RemoteHost} and {@link Ssh}, as {@code cumulus run} does): its driver and run
 * directory serve every process started there, and closing the group ends the agents, which stop what is left of
 * the group's processes (those whose command line carries {@link #mark()}) and delete the directories.
 *
 * <p>{@link #start} runs a command on a process's host: a local process for {@code localhost}, else an ssh session
 * (sharing one connection per host while fewer than {@value Ssh#SHARED_SESSIONS} sessions are open there) whose
 * stdin, stdout and stderr are the returned process's; the session runs in this process's working directory when the
 * host has it. The hosts must have this JDK and the command's classpath at the same paths.
 *
 * <p>Threads: opened, used and closed by one thread; process exits are counted from the JDK's exit callbacks.
 */
public final class HostGroup implements AutoCloseable {
    /**
     * Where a process runs.
     *
     * @param host      its host's name in the file
     * @param local     whether that is this host ({@code localhost}): the process starts here without ssh
     * @param address   the host's address for the other hosts (for this host: as the other hosts see it)
     * @param driverDir the host agent's media driver directory on that host (UDP between hosts); null for this host
     * @param runDir    the host agent's run directory on that host; null for this host
     */
    public record Place(String host, boolean local, String address, String driverDir, String runDir) {
    }

    private final HostsFile file;
    private final int[] hostOf;
    private final String runId;
    private final Path controlDir;
    private final Ssh ssh;
    private final RemoteHost[] agents;
    private final Map<String, Integer> openSessions = new ConcurrentHashMap<>();
    private String launcherAddress = "127.0.0.1";
    private boolean closed;

    private HostGroup(HostsFile file, int[] hostOf, String sshArgs) {
        this.file = file;
        this.hostOf = hostOf;
        this.runId = "bench-" + RunId.next();
        try {
            this.controlDir = Files.createTempDirectory("cumulus-ssh-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new CumulusException("cannot create a directory for the ssh connections in "
                + System.getProperty("java.io.tmpdir") + ": " + e.getMessage(), e);
        }
        this.ssh = Ssh.of(sshArgs).sharingConnectionsIn(controlDir);
        this.agents = new RemoteHost[file.hosts().size()];
    }

    /**
     * Reads {@code hostsFile}, places {@code processes} processes, and starts a host agent on every other host that
     * holds one, in parallel; returns once all are ready.
     *
     * @param sshArgs   the user's extra ssh options ({@code --ssh}), or null
     * @param portBases for each base b, process i listens on UDP port b + i on its host: each host's agent checks its
     *                  processes' ports are free before it answers
     * @param err       where the agents' messages go, prefixed with {@code [HOST] }
     * @throws LaunchException for a bad hosts file, too few slots, or a host that cannot take part (named, with what
     *                         ssh or its agent said); nothing is left running then
     */
    public static HostGroup open(Path hostsFile, String sshArgs, int processes, List<Integer> portBases,
                                 PrintStream err) {
        HostsFile file = HostsFile.read(hostsFile);
        HostGroup group = new HostGroup(file, file.place(processes), sshArgs);
        try {
            group.startAgents(portBases, err);
            return group;
        } catch (RuntimeException e) {
            group.close();
            throw e;
        }
    }

    /**
     * The slots of all hosts of {@code hostsFile} together: how many processes it can take.
     *
     * @throws LaunchException for a file that cannot be read or has a bad line (named with its line number)
     */
    public static int slots(Path hostsFile) {
        return HostsFile.read(hostsFile).slots();
    }

    private void startAgents(List<Integer> portBases, PrintStream err) {
        for (int h = 0; h < agents.length; h++) {
            HostsFile.Host host = file.hosts().get(h);
            List<String> ports = new ArrayList<>();
            for (int i = 0; i < hostOf.length; i++) {
                if (hostOf[i] == h) {
                    for (int base : portBases) {
                        ports.add(Integer.toString(base + i));
                    }
                }
            }
            if (host.local() || ports.isEmpty()) {
                continue;
            }
            agents[h] = RemoteHost.start(host.name(), ssh, ClusterLauncher.agentCommand(runId, false, ports, false, ClusterLauncher.javaPath()),
                err);
        }
        Map<String, String> seen = new LinkedHashMap<>();
        RemoteHost first = null;
        for (RemoteHost agent : agents) {
            if (agent == null) {
                continue;
            }
            agent.awaitReady(RemoteHost.READY_WAIT);
            first = first == null ? agent : first;
            String before = seen.putIfAbsent(agent.address(), agent.name());
            if (before != null) {
                throw new LaunchException("hosts " + before + " and " + agent.name() + " in " + file.file()
                    + " are the same machine (" + agent.address() + "); list it once with slots=N");
            }
        }
        if (first != null) {
            launcherAddress = first.launcherAddress();
            if (hasLocal() && seen.containsKey(launcherAddress)) {
                throw new LaunchException("host " + seen.get(launcherAddress) + " in " + file.file() + " is this host ("
                    + launcherAddress + "), which is also listed as localhost; list it once");
            }
        }
    }

    private boolean hasLocal() {
        for (int h : hostOf) {
            if (file.hosts().get(h).local()) {
                return true;
            }
        }
        return false;
    }

    /** How many processes the group placed. */
    public int processes() {
        return hostOf.length;
    }

    /**
     * The property every process of the group carries on its command line ({@code -Dcumulus.run.id=ID}): a host
     * agent stops the processes that carry it when the group closes. Nodes started with a {@code LaunchConfig} of
     * {@link #runId()} carry it already.
     */
    public String mark() {
        return "-Dcumulus.run.id=" + runId;
    }

    /** The group's run id, for the launch configurations of nodes started on its hosts. */
    public String runId() {
        return runId;
    }

    /** Where process {@code i} runs. */
    public Place place(int i) {
        HostsFile.Host host = file.hosts().get(hostOf[i]);
        RemoteHost agent = agents[hostOf[i]];
        return agent == null
            ? new Place(host.name(), true, launcherAddress, null, null)
            : new Place(host.name(), false, agent.address(), agent.driverDir(), agent.runDir());
    }

    /** {@code host1 (198.18.0.2): 0 1, host2 (198.18.0.3): 2}: each host's address and the processes it holds. */
    public String describe() {
        Map<Integer, List<String>> byHost = new LinkedHashMap<>();
        for (int i = 0; i < hostOf.length; i++) {
            byHost.computeIfAbsent(hostOf[i], h -> new ArrayList<>()).add(Integer.toString(i));
        }
        return byHost.entrySet().stream().map(e -> {
            Place p = place(Integer.parseInt(e.getValue().getFirst()));
            return p.host() + " (" + p.address() + "): " + String.join(" ", e.getValue());
        }).collect(Collectors.joining(", "));
    }

    /**
     * Starts {@code command} (its words as a local {@link ProcessBuilder} would take them) on process {@code i}'s host.
     *
     * @throws IOException when the local process (the command itself, or ssh) cannot start
     */
    public Process start(int i, List<String> command) throws IOException {
        Place place = place(i);
        if (place.local()) {
            return new ProcessBuilder(command).start();
        }
        String cwd = Path.of("").toAbsolutePath().toString();
        int open = openSessions.merge(place.host(), 1, Integer::sum) + 1; // the agent's session is the first
        Ssh how = open <= Ssh.SHARED_SESSIONS ? ssh : ssh.unshared();
        Process p;
        try {
            p = new ProcessBuilder(how.command(place.host(), "cd " + Ssh.quote(cwd) + " 2>/dev/null; "
                + Ssh.shellLine(command))).start();
        } catch (IOException e) {
            openSessions.merge(place.host(), -1, Integer::sum);
            throw new IOException("cannot run ssh to reach host " + place.host() + " (" + e.getMessage() + "); "
                + "--hosts needs OpenSSH's client (ssh) on the PATH", e);
        }
        p.onExit().thenRun(() -> openSessions.merge(place.host(), -1, Integer::sum));
        return p;
    }

    /**
     * Ends every host agent, in parallel (each stops the group's processes left on its host and deletes its
     * directories), then deletes the ssh connections' directory. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        List<Thread> closing = new ArrayList<>();
        for (RemoteHost agent : agents) {
            if (agent != null) {
                closing.add(Thread.ofPlatform().name("cumulus-host-" + agent.name() + "-close").start(agent::close));
            }
        }
        for (Thread t : closing) {
            try {
                t.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        DriverDirectories.deleteTree(controlDir);
    }
}
