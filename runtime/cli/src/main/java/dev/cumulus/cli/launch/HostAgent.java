package dev.cumulus.cli.launch;

import dev.cumulus.CumulusException;
import dev.cumulus.cli.profile.ProfileSettings;
import dev.cumulus.cli.ship.ClassReceiver;
import dev.cumulus.cli.ship.ShipProtocol;
import dev.cumulus.internal.transport.DriverHost;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The launcher's helper on another host, started there through ssh ({@link RemoteHost}) for the time of one run. It
 * hosts the host's media driver ({@code <shm>/cumulus-<runId>}) and the host's run directory
 * ({@code <tmp>/cumulus-run-<runId>}: failure reports, JFR recordings), tells the launcher the host's address, and
 * sends the run directory's files back when asked. When its stdin ends (the launcher closed it, or the launcher or
 * its ssh died) it stops what is left of the run's nodes on this host, closes the driver and deletes both directories.
 *
 * <p>Protocol (stdout is the launcher's; messages go to stderr): it first writes
 * {@code ready HOST_ADDRESS LAUNCHER_ADDRESS DRIVER_DIR RUN_DIR}, the addresses as this host's ssh server saw the
 * connection ({@code SSH_CONNECTION}). Then, for each stdin line {@code fetch SUFFIX}, it writes
 * {@code file NAME LENGTH}, a line each, followed by the file's bytes, for every file of the run directory whose name
 * ends with {@code SUFFIX}, and then {@code end}. A stdin line {@code classes COUNT} begins a manifest of the program's
 * classpath: the agent takes what this host's class cache lacks ({@link ClassReceiver}, docs in
 * {@code dev.cumulus.cli.ship}), so the run's nodes here start with the cached copies as their classpath.
 *
 * <p>Arguments: {@code RUN_ID profile|- PORT[,PORT...] [srun]} (the UDP ports of this host's nodes, checked free
 * first). With {@code srun} it runs as a step of a Slurm job ({@link Srun}): the launcher's address is the one srun
 * gives its tasks ({@code SLURM_LAUNCH_NODE_IPADDR}), and this host's is the local address of the route there.
 */
public final class HostAgent {
    /** Exit code when the host cannot take part (ports in use, no driver); the message is on stderr. */
    static final int EXIT_CANNOT_START = 2;
    static final String READY = "ready";
    static final String FETCH = "fetch";
    static final String FILE = "file";
    static final String END = "end";
    static final String RUN_DIR_PREFIX = "cumulus-run-";
    /** The last argument of an agent started by srun. */
    static final String VIA_SRUN = "srun";
    private static final long NODE_END_WAIT_MS = 5_000;

    private final String runId;
    private DriverHost driver;
    private Path runDir;
    private boolean closed;

    private HostAgent(String runId) {
        this.runId = runId;
    }

    public static void main(String[] args) {
        if (args.length != 3 && !(args.length == 4 && args[3].equals(VIA_SRUN))) {
            System.err.println("cumulus host agent: usage: RUN_ID profile|- PORT[,PORT...] [srun] (started by "
                + "cumulus run)");
            System.exit(EXIT_CANNOT_START);
        }
        HostAgent agent = new HostAgent(args[0]);
        Runtime.getRuntime().addShutdownHook(new Thread(agent::close, "cumulus-host-agent-cleanup"));
        PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        try {
            String[] ssh = args.length == 4 ? slurmConnection() : sshConnection();
            String hostAddress = endpointHost(ssh[2]);
            checkPortsFree(ssh[2], args[2]);
            agent.start(args[1].equals("profile"));
            out.println(READY + " " + hostAddress + " " + endpointHost(ssh[0]) + " " + agent.driver.directory() + " "
                + agent.runDir);
            out.flush();
            agent.serve(new BufferedInputStream(System.in), out);
        } catch (CumulusException | IOException e) {
            System.err.println("cumulus: " + e.getMessage());
            agent.close();
            System.exit(EXIT_CANNOT_START);
        }
        agent.close();
        System.exit(0);
    }

    /** {@code SSH_CONNECTION}'s four fields: client address and port, server address and port. */
    private static String[] sshConnection() {
        String conn = System.getenv("SSH_CONNECTION");
        String[] f = conn == null ? new String[0] : conn.trim().split("\\s+");
        if (f.length != 4) {
            throw new CumulusException("the host agent runs only under ssh (SSH_CONNECTION is "
                + (conn == null ? "not set" : "'" + conn + "'") + ")");
        }
        return f;
    }

    /**
     * As {@link #sshConnection()} for an agent that srun started: the launcher's address as srun tells it, this host's
     * the local end of the route to it (a connected UDP socket sends nothing).
     */
    private static String[] slurmConnection() throws IOException {
        String launcher = System.getenv("SLURM_LAUNCH_NODE_IPADDR");
        if (launcher == null || launcher.isBlank()) {
            throw new CumulusException("the host agent was started with 'srun' but SLURM_LAUNCH_NODE_IPADDR is not "
                + "set; is this a Slurm job step?");
        }
        InetAddress to = InetAddress.getByName(launcher.trim());
        try (DatagramSocket route = new DatagramSocket()) {
            route.connect(new InetSocketAddress(to, 9));
            InetAddress local = route.getLocalAddress();
            if (local.isAnyLocalAddress()) {
                throw new CumulusException("this host has no route to the launcher's address " + launcher);
            }
            return new String[] {to.getHostAddress(), "0", local.getHostAddress(), "0"};
        }
    }

    /** An address as the host part of an Aeron endpoint: IPv6 in brackets. */
    static String endpointHost(String address) {
        return address.contains(":") ? "[" + address + "]" : address;
    }

    private static void checkPortsFree(String address, String ports) throws IOException {
        InetAddress bind = InetAddress.getByName(address);
        for (String p : ports.split(",")) {
            int port = Integer.parseInt(p);
            try (DatagramSocket probe = new DatagramSocket(new InetSocketAddress(bind, port))) {
                probe.getLocalPort();
            } catch (SocketException e) {
                throw new CumulusException("UDP port " + port + " on " + address + " is in use (" + e.getMessage()
                    + "); pick another --base-port");
            }
        }
    }

    private synchronized void start(boolean profile) throws IOException {
        Path shm = ClusterLauncher.driverRoot();
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        DriverDirectories.removeStale(shm, System.err);
        DriverDirectories.removeStale(tmp, System.err);
        Path dir = Files.createDirectory(tmp.resolve(RUN_DIR_PREFIX + runId),
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        runDir = dir;
        DriverDirectories.markOwner(dir);
        if (profile) {
            Files.writeString(dir.resolve(RunDirectory.PROFILE_SETTINGS), ProfileSettings.jfc(),
                StandardCharsets.UTF_8);
        }
        Path driverDir = shm.resolve(DriverDirectories.PREFIX + runId);
        driver = DriverHost.start(driverDir.toString(), false);
        DriverDirectories.markOwner(driverDir);
    }

    private void serve(InputStream in, PrintStream out) throws IOException {
        String line;
        while ((line = readLine(in)) != null) {
            if (line.startsWith(FETCH + " ")) {
                send(line.substring(FETCH.length() + 1), out);
            } else if (line.startsWith(ShipProtocol.CLASSES + " ")) {
                ClassReceiver.receive(line, in, out, ClassReceiver.CacheOrError::openDefault);
            }
        }
    }

    private void send(String suffix, PrintStream out) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.list(runDir)) {
            files = s.filter(f -> f.getFileName().toString().endsWith(suffix) && Files.isRegularFile(f)).sorted()
                .toList();
        }
        for (Path f : files) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(f);
            } catch (IOException e) {
                System.err.println("cumulus: cannot read " + f + ": " + e.getMessage());
                continue;
            }
            out.println(FILE + " " + f.getFileName() + " " + bytes.length);
            out.write(bytes);
        }
        out.println(END);
        out.flush();
    }

    /** A line without its end, or null at the end of the stream. */
    static String readLine(InputStream in) throws IOException {
        StringBuilder sb = new StringBuilder();
        int b;
        while ((b = in.read()) != '\n') {
            if (b < 0) {
                return sb.isEmpty() ? null : sb.toString();
            }
            sb.append((char) b);
        }
        return sb.toString();
    }

    /** Writes a line in the protocol's form. */
    static void writeLine(OutputStream out, String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** Stops the run's nodes left on this host, closes the driver, deletes the directories; idempotent. */
    private synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        stopNodes();
        try {
            if (driver != null) {
                driver.close();
            }
        } catch (RuntimeException e) {
            System.err.println("cumulus: closing the media driver failed: " + e);
        }
        if (runDir != null) {
            DriverDirectories.deleteTree(runDir);
        }
    }

    /** The run's node JVMs still alive on this host: SIGKILL after a grace period (their launcher is done). */
    private void stopNodes() {
        String mark = "-Dcumulus.run.id=" + runId;
        List<ProcessHandle> left = new ArrayList<>(ProcessHandle.allProcesses()
            .filter(p -> p.info().arguments().map(a -> List.of(a).contains(mark)).orElse(false)).toList());
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(NODE_END_WAIT_MS);
        for (ProcessHandle p : left) {
            try {
                p.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
        }
    }
}
