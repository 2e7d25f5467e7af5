package dev.cumulus.bench;

import dev.cumulus.CumulusException;
import dev.cumulus.cli.launch.DriverDirectories;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.launch.NodeSecret;
import dev.cumulus.internal.transport.DriverHost;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The processes (and the media driver and directories) of one measurement. Starts children with the same JVM flags
 * and this JVM's classpath, reads their stdout protocol ({@link ChildIo}), samples their CPU time at
 * {@code PHASE sync start/end}, and on {@link #close()} stops them all (SIGTERM, SIGKILL after a grace) and deletes
 * every directory. A JVM shutdown hook closes every open set, so Ctrl-C leaves nothing behind either.
 *
 * <p>With {@link BenchHosts} ({@code --hosts}) child {@code i} of a measurement runs on the host of slot {@code i},
 * through ssh: its stdin, stdout and stderr are the ssh session's, so the protocol is the same; closing the set closes
 * each child's stdin (it exits) before it kills the session. Its CPU time is read when its process is visible here
 * (the {@code PID} line it prints names it; on other machines it is not, and the CPU column shows none).
 *
 * <p>Threads: the caller's thread drives; two reader threads per child (stdout, stderr).
 */
public final class ProcessSet implements AutoCloseable {
    /**
     * Flags of every child JVM: the ones {@code cumulus run} gives its nodes, then the words of the environment
     * variable {@code CUMULUS_BENCH_JAVA_OPTS} (e.g. {@code -Dcumulus.callerPollNs=0} to compare a setting).
     */
    public static final List<String> JVM_FLAGS = jvmFlags(System.getenv("CUMULUS_BENCH_JAVA_OPTS"));

    static List<String> jvmFlags(String extra) {
        List<String> flags = new ArrayList<>(List.of(
            "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED",
            "-XX:+UseSerialGC",
            "-Djava.rmi.server.hostname=127.0.0.1"));
        if (extra != null && !extra.isBlank()) {
            flags.addAll(List.of(extra.trim().split("\\s+")));
        }
        return List.copyOf(flags);
    }
    private static final List<String> ANCHORS = List.of(
        "dev.cumulus.bench.RpcBench", "dev.cumulus.Cluster", "io.aeron.Aeron", "io.aeron.driver.MediaDriver",
        "org.agrona.DirectBuffer", "org.HdrHistogram.Histogram", "dev.cumulus.agent.CumulusAgent",
        "dev.cumulus.analysis.CloudAnalyzer", "org.jgroups.JChannel",
        // the capability modules: nodes find them through ServiceLoader, the agent weaves calls to CloudHooks
        "dev.cumulus.internal.cloud.CloudHooks", "dev.cumulus.internal.array.ArrayRuntime",
        "dev.cumulus.internal.pastset.PastSetRuntime",
        // the standing cluster: its servers' main, Cluster.connect (rpc --attach)
        "dev.cumulus.internal.service.StandingServer",
        // moving objects (the migration suite, Remote.migrate)
        "dev.cumulus.internal.migration.MigrationsProvider",
        // the node's side of the launcher contract (Cluster.join() in a launched node, the launcher's secret)
        "dev.cumulus.internal.launch.LaunchConfig");
    private static final Set<ProcessSet> OPEN = ConcurrentHashMap.newKeySet();
    private static final Duration GRACE = Duration.ofSeconds(3);
    private static final int TAIL_LINES = 30;

    private static volatile boolean shuttingDown;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            shuttingDown = true;
            OPEN.forEach(ProcessSet::close);
        }, "bench-cleanup"));
    }

    /** One child process. */
    public final class Child {
        public final String name;
        /** The child's JVM, or the ssh session that runs it on another host. */
        public final Process process;
        private final boolean remote;
        private final String tag;
        /** The child's JVM as this machine sees it (for its CPU time); null while unknown or not visible here. */
        private volatile ProcessHandle jvm;
        private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        private final Deque<String> tail = new ArrayDeque<>();

        private Child(String name, Process process, boolean remote, String tag) {
            this.name = name;
            this.process = process;
            this.remote = remote;
            this.tag = tag;
            this.jvm = remote ? null : process.toHandle();
        }

        private void onLine(String line, boolean stdout) {
            synchronized (tail) {
                tail.addLast((stdout ? "" : "[stderr] ") + line);
                while (tail.size() > TAIL_LINES) {
                    tail.removeFirst();
                }
            }
            if (stdout) {
                if (remote && line.startsWith(ChildIo.PID + " ")) {
                    jvm = visibleJvm(line.substring(ChildIo.PID.length() + 1), tag);
                }
                if (line.startsWith("PHASE ")) {
                    onPhase(line.substring("PHASE ".length()).trim());
                }
                lines.add(line);
            }
        }

        public String tail() {
            synchronized (tail) {
                return tail.isEmpty() ? "  (no output)" : tail.stream().map(l -> "  " + l).collect(Collectors.joining("\n"));
            }
        }

        /** The rest of the first stdout line that starts with {@code prefix} (e.g. "READY "). */
        public String await(String prefix, Duration timeout) {
            long deadline = System.nanoTime() + timeout.toNanos();
            try {
                while (true) {
                    String l = lines.poll(50, TimeUnit.MILLISECONDS);
                    if (l != null && l.startsWith(prefix)) {
                        return l.substring(prefix.length()).trim();
                    }
                    if (l == null && !process.isAlive() && lines.isEmpty()) {
                        process.waitFor(1, TimeUnit.SECONDS);
                        Thread.sleep(100); // let the reader threads copy the last lines
                        throw new CumulusException(label + ": " + name + " exited with code " + process.exitValue()
                            + " before printing '" + prefix.trim() + "'; its last output:\n" + tail());
                    }
                    if (System.nanoTime() - deadline > 0) {
                        throw new CumulusException(label + ": " + name + " printed no '" + prefix.trim() + "' within "
                            + timeout.toSeconds() + " s; its last output:\n" + tail());
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CumulusException(label + ": interrupted while waiting for " + name, e);
            }
        }

        /** Opens the child's start gate. */
        public void go() {
            try {
                OutputStream in = process.getOutputStream();
                in.write("GO\n".getBytes(StandardCharsets.UTF_8));
                in.flush();
            } catch (IOException e) {
                throw new CumulusException(label + ": cannot start " + name + ": " + e.getMessage(), e);
            }
        }

        /** Waits for the child to exit and checks its exit code is 0. */
        public void awaitSuccess(Duration timeout) {
            try {
                if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                    throw new CumulusException(label + ": " + name + " did not exit within " + timeout.toSeconds()
                        + " s; its last output:\n" + tail());
                }
                if (process.exitValue() != 0) {
                    Thread.sleep(100);
                    throw new CumulusException(label + ": " + name + " exited with code " + process.exitValue()
                        + "; its last output:\n" + tail());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CumulusException(label + ": interrupted while waiting for " + name, e);
            }
        }
    }

    private final String label;
    private final BenchHosts hosts;
    private String localUdpDriver;
    /** The secret of the run this set's nodes form, written first on each node's stdin as the launcher does. */
    private final RunSecret secret = RunSecret.generate();
    private final String classpath;
    private final List<Child> children = new ArrayList<>();
    private final List<DriverHost> drivers = new ArrayList<>();
    private final List<Path> directories = new ArrayList<>();
    private final Map<String, long[]> phaseStart = new ConcurrentHashMap<>();
    private final Map<String, Map<String, Double>> phaseCpu = new ConcurrentHashMap<>();
    private boolean closed;

    public ProcessSet(String label) {
        this(label, null);
    }

    /** A set whose child {@code i} runs on the host of slot {@code i} of {@code hosts} (null: all on this host). */
    public ProcessSet(String label, BenchHosts hosts) {
        this.label = label;
        this.hosts = hosts;
        this.classpath = classpath();
        OPEN.add(this);
        if (shuttingDown) { // the hook may have iterated before we were added: it sets the flag first
            close();
            throw new CumulusException(label + ": the JVM is shutting down");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new CumulusException(label + ": stopped");
        }
    }

    /** Starts an embedded shared-mode media driver (the one {@code cumulus run} uses) in a fresh directory. */
    public synchronized String startDriver(String name) {
        checkOpen();
        String dir = driverRoot().resolve("cumulus-bench-" + name + "-" + ProcessHandle.current().pid() + "-"
            + Long.toHexString(System.nanoTime())).toString();
        drivers.add(DriverHost.start(dir, true)); // every bench party on it uses IPC
        directories.add(Path.of(dir));
        return dir;
    }

    /** A driver for nodes that talk UDP (its thread moves the bytes: no batch policy); deleted on close. */
    public synchronized String startUdpDriver(String name) {
        checkOpen();
        String dir = driverRoot().resolve("cumulus-bench-" + name + "-" + ProcessHandle.current().pid() + "-"
            + Long.toHexString(System.nanoTime())).toString();
        drivers.add(DriverHost.start(dir, false));
        directories.add(Path.of(dir));
        return dir;
    }

    /**
     * With hosts: the media driver child {@code slot} uses — its host agent's, or for this host one driver for UDP
     * started for the set (deleted on close).
     */
    public synchronized String hostDriver(int slot) {
        String remote = hosts.driverDir(slot);
        if (remote != null) {
            return remote;
        }
        if (localUdpDriver == null) {
            localUdpDriver = startUdpDriver("hosts");
        }
        return localUdpDriver;
    }

    /** With hosts: the run directory for child {@code slot}: its host agent's, or {@code local} on this host. */
    public Path hostRunDir(int slot, Path local) {
        Path remote = hosts.runDir(slot);
        return remote == null ? local : remote;
    }

    /** {@code n} UDP ports free on loopback now. */
    public static List<Integer> freeUdpPorts(int n) {
        List<java.net.DatagramSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                java.net.DatagramSocket s = new java.net.DatagramSocket(
                    new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                held.add(s);
                ports.add(s.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new CumulusException("no free UDP ports on loopback: " + e.getMessage(), e);
        } finally {
            held.forEach(java.net.DatagramSocket::close);
        }
    }

    /**
     * A fresh temporary directory, {@code cumulus-bench-NAME-PID-…} (this process's id, as its drivers' directories
     * carry it), deleted on close.
     */
    public synchronized Path tempDirectory(String name) {
        checkOpen();
        try {
            Path d = Files.createTempDirectory("cumulus-bench-" + name + "-" + ProcessHandle.current().pid() + "-");
            directories.add(d);
            return d;
        } catch (IOException e) {
            throw new CumulusException("cannot create a temporary directory: " + e.getMessage(), e);
        }
    }

    /**
     * A directory a child will make and should delete itself (e.g. its embedded media driver's), deleted on close
     * too, for when the child was killed before it could.
     */
    public synchronized void deleteOnClose(Path dir) {
        checkOpen();
        directories.add(dir);
    }

    /** Starts {@code main} in a JVM of its own. */
    public Child start(String name, List<String> jvmArgs, Class<?> main, List<String> args) {
        return start(name, List.of(), jvmArgs, main, args);
    }

    /**
     * Starts {@code main} in a JVM of its own as the measurement's process {@code slot}: with hosts, on the host of
     * that slot (over ssh unless it is this host); without, here.
     */
    public Child start(String name, int slot, List<String> jvmArgs, Class<?> main, List<String> args) {
        if (hosts == null) {
            return start(name, List.of(), jvmArgs, main, args);
        }
        return start(name, slot, List.of(), jvmArgs, main, args);
    }

    /**
     * Starts {@code main} in a JVM of its own, its command line prefixed by {@code prefix} (e.g.
     * {@code ip netns exec NS}, which execs the JVM in its place, so the child is still the JVM).
     */
    public Child start(String name, List<String> prefix, List<String> jvmArgs, Class<?> main, List<String> args) {
        return start(name, -1, prefix, jvmArgs, main, args);
    }

    private synchronized Child start(String name, int slot, List<String> prefix, List<String> jvmArgs, Class<?> main,
                                     List<String> args) {
        checkOpen();
        boolean remote = slot >= 0 && !hosts.local(slot);
        String tag = "-Dbench.child=" + Long.toHexString(System.nanoTime()) + "-" + name;
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(JVM_FLAGS);
        if (slot >= 0) {
            cmd.add(tag);
            if (jvmArgs.stream().noneMatch(a -> a.startsWith("-Dcumulus.run.id="))) {
                cmd.add(hosts.mark()); // the host agent stops what is left of it
            }
        }
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(classpath);
        cmd.add(main.getName());
        cmd.addAll(args);
        Process p;
        try {
            p = slot >= 0 ? hosts.start(slot, cmd) : new ProcessBuilder(cmd).start();
        } catch (IOException e) {
            throw new CumulusException(label + ": cannot start " + name + ": " + e.getMessage(), e);
        }
        if (jvmArgs.contains("-D" + LaunchConfig.SECRET + "=" + NodeSecret.STDIN)) {
            try {
                OutputStream in = p.getOutputStream();
                in.write((secret.line() + "\n").getBytes(StandardCharsets.US_ASCII));
                in.flush();
            } catch (IOException e) {
                // it died at once; its output says why
            }
        }
        Child c = new Child(name, p, remote, tag);
        children.add(c);
        pump(c, p.getInputStream(), true);
        pump(c, p.getErrorStream(), false);
        return c;
    }

    private void pump(Child c, InputStream in, boolean stdout) {
        Thread.ofPlatform().daemon().name("bench-out-" + c.name).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String l;
                while ((l = r.readLine()) != null) {
                    c.onLine(l, stdout);
                }
            } catch (IOException e) {
                // the process is gone
            }
        });
    }

    /** CPU use of every process (and {@code drv}, this JVM) during the phase: CPU time / wall time, 1.0 = one core. */
    public Map<String, Double> cpu(String phase) {
        return phaseCpu.getOrDefault(phase, Map.of());
    }

    private void onPhase(String what) {
        String[] p = what.split(" ");
        if (p.length != 2) {
            return;
        }
        long[] snapshot = snapshot();
        if (p[1].equals("start")) {
            phaseStart.putIfAbsent(p[0], snapshot);
        } else if (p[1].equals("end") && phaseStart.containsKey(p[0]) && !phaseCpu.containsKey(p[0])) {
            long[] s = phaseStart.get(p[0]);
            double wall = snapshot[0] - s[0];
            Map<String, Double> use = new LinkedHashMap<>();
            List<Child> cs = snapshotChildren();
            for (int i = 0; i < cs.size() && i + 2 < snapshot.length; i++) {
                if (s.length > i + 2 && s[i + 2] >= 0 && snapshot[i + 2] >= 0) {
                    use.put(cs.get(i).name, (snapshot[i + 2] - s[i + 2]) / wall);
                }
            }
            use.put("drv", (snapshot[1] - s[1]) / wall);
            phaseCpu.put(p[0], use);
        }
    }

    private synchronized List<Child> snapshotChildren() {
        return List.copyOf(children);
    }

    /** [nanoTime, own CPU ns, child CPU ns...] (-1 when unknown). */
    private long[] snapshot() {
        List<Child> cs = snapshotChildren();
        long[] s = new long[cs.size() + 2];
        s[0] = System.nanoTime();
        s[1] = cpuNs(ProcessHandle.current());
        for (int i = 0; i < cs.size(); i++) {
            s[i + 2] = cpuNs(cs.get(i).jvm);
        }
        return s;
    }

    private static long cpuNs(ProcessHandle h) {
        return h == null ? -1 : h.info().totalCpuDuration().map(Duration::toNanos).orElse(-1L);
    }

    /**
     * The process a remote child's {@code PID pid startMillis} line names, when this machine sees that very process
     * (the same pid, start time and tag: test hosts in network namespaces of this machine); else null.
     */
    static ProcessHandle visibleJvm(String pidLine, String tag) {
        String[] f = pidLine.trim().split(" ");
        try {
            long pid = Long.parseLong(f[0]);
            long started = Long.parseLong(f[1]);
            return ProcessHandle.of(pid)
                .filter(h -> h.info().startInstant().map(t -> t.toEpochMilli() == started).orElse(false))
                .filter(h -> h.info().arguments().map(a -> List.of(a).contains(tag)).orElse(false))
                .orElse(null);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public void close() {
        List<Child> cs;
        List<DriverHost> ds;
        List<Path> dirs;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            cs = List.copyOf(children);
            ds = List.copyOf(drivers);
            dirs = List.copyOf(directories);
        }
        try {
            for (Child c : cs) {
                if (c.remote) {
                    // its JVM exits when its stdin ends, and the ssh session with it; killing ssh first could leave
                    // the JVM running a moment longer, on the ports the next measurement takes
                    try {
                        c.process.getOutputStream().close();
                    } catch (IOException e) {
                        // the session is gone already
                    }
                } else {
                    c.process.destroy();
                }
            }
            long deadline = System.nanoTime() + GRACE.toNanos();
            for (Child c : cs) {
                try {
                    if (!c.process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                        c.process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    c.process.destroyForcibly();
                    Thread.currentThread().interrupt();
                }
            }
            for (DriverHost d : ds) {
                try {
                    d.close();
                } catch (RuntimeException e) {
                    // the directory is deleted below anyway
                }
            }
            for (Path d : dirs) {
                DriverDirectories.deleteTree(d);
            }
        } finally {
            OPEN.remove(this);
        }
    }

    /** The directories this set created (for tests: all gone after close). */
    public synchronized List<Path> directories() {
        return List.copyOf(directories);
    }

    public static Path driverRoot() {
        Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) && Files.isWritable(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }


    /** Where this JVM loaded the bench, the runtime, Aeron, Agrona and HdrHistogram from. */
    static String classpath() {
        Set<String> paths = new LinkedHashSet<>();
        for (String name : ANCHORS) {
            try {
                Class<?> c = Class.forName(name, false, ProcessSet.class.getClassLoader());
                var cs = c.getProtectionDomain().getCodeSource();
                if (cs != null && cs.getLocation() != null) {
                    paths.add(Path.of(cs.getLocation().toURI()).toAbsolutePath().toString());
                }
            } catch (ClassNotFoundException | URISyntaxException e) {
                // fall back to java.class.path below
            }
        }
        String jcp = System.getProperty("java.class.path", "");
        if (paths.size() < ANCHORS.size() && !jcp.isEmpty()) {
            paths.add(jcp);
        }
        return String.join(File.pathSeparator, paths);
    }

    /** Every child's results ({@link #results}), then each child's successful exit, each within {@code timeout}. */
    public static Map<String, Map<String, String>> allResults(List<Child> children, Duration timeout) {
        Map<String, Map<String, String>> r = new LinkedHashMap<>();
        for (Child c : children) {
            r.putAll(results(c, children, timeout));
        }
        for (Child c : children) {
            c.awaitSuccess(timeout);
        }
        return r;
    }

    /** The first line of a suite's table: its name, the time, this machine and JVM, and QUICK when {@code quick}. */
    public static String headerLine(String suite, boolean quick) {
        return String.format("cumulus bench %s: %s, %d cores, Java %s (%s), %s %s%s", suite,
            LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")),
            Runtime.getRuntime().availableProcessors(), Runtime.version(), System.getProperty("java.vendor"),
            System.getProperty("os.name"), System.getProperty("os.arch"), quick ? ", QUICK (smoke test)" : "");
    }

    /**
     * A child's {@code RESULT name key=value ...} lines until it prints {@code DONE}: name -> key -> value. When the
     * child stays silent past {@code timeout}, the error carries the other children's last output too.
     */
    public static Map<String, Map<String, String>> results(Child child, List<Child> all, Duration timeout) {
        Map<String, Map<String, String>> m = new LinkedHashMap<>();
        while (true) {
            String l;
            try {
                l = child.await("", timeout);
            } catch (CumulusException e) {
                StringBuilder others = new StringBuilder(e.getMessage());
                for (Child o : all) {
                    if (o != child) {
                        others.append("\n").append(o.name).append("'s last output:\n").append(o.tail());
                    }
                }
                throw new CumulusException(others.toString(), e);
            }
            if (l.equals("DONE")) {
                return m;
            }
            if (l.startsWith("RESULT ")) {
                String rest = l.substring("RESULT ".length());
                int sp = rest.indexOf(' ');
                m.put(rest.substring(0, sp), RpcBench.parse(rest.substring(sp + 1)));
            }
        }
    }

    /** {@code n} loopback ports that were free a moment ago (for peers that need TCP ports, e.g. JGroups, Hazelcast). */
    public static List<Integer> freeLoopbackPorts(int n) {
        List<ServerSocket> held = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                held.add(s);
                ports.add(s.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new CumulusException("cannot find free loopback ports: " + e.getMessage(), e);
        } finally {
            for (ServerSocket s : held) {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // the port is only a hint for the peer; nothing to do
                }
            }
        }
    }
}
