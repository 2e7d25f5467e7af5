package dev.cumulus.bench.replication;

import dev.cumulus.CumulusException;
import dev.cumulus.bench.ProcessSet;
import dev.cumulus.cli.launch.DriverDirectories;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Emulated wide-area "clusters" for Table 4: {@code count} network namespaces {@code cbr<pid>-<k>}, each with one
 * veth {@code eth0} (10.77.k.1/24, default route via 10.77.k.254) whose peer {@code hK} (10.77.k.254/24) sits in a
 * routing hub namespace {@code cbr<pid>-hub}. Every packet between two clusters is delayed once, by one of two
 * {@link Delay mechanisms}: {@code tc netem} on each cluster's egress when the kernel has it, else a
 * {@link TunDelayRouter} process in the hub, to which policy routing sends every packet arriving from a cluster.
 * So the one-way delay between clusters is the configured delay and the round trip twice it. The namespaces have no
 * route out: their traffic never leaves the namespaces this class made.
 *
 * <p>{@link #close()} (also from a shutdown hook, and on a failure in {@link #create}) stops the processes inside
 * ({@link #beforeCleanup}), then the router, then deletes every namespace named {@code cbr<pid>-*}, which deletes the
 * links with them. What a killed run (SIGKILL: no hook) left behind, its namespaces and its nodes' driver directories
 * ({@link #runId()}), is deleted by {@link #sweep} before the next run probes or creates.
 *
 * <p>Threads: the orchestrator's thread creates and uses it; the shutdown hook may close it concurrently
 * ({@link #close()} is synchronized and runs once; {@link #netns} and the router's start take the same lock and
 * refuse once closed). One open instance per JVM (the names carry the pid).
 */
final class Netns implements AutoCloseable {
    /** How the wide-area delay is made. */
    enum Delay {
        NETEM("tc netem delay on each cluster's egress (eth0)"),
        TUN_ROUTER("a userspace delay router (TunDelayRouter) on a TUN device in the hub namespace, the kernel having"
            + " no netem qdisc; policy routing sends every packet from a cluster through it");

        final String description;

        Delay(String description) {
            this.description = description;
        }
    }

    /** Whether and how the namespaces can be made here: {@code why} is null when they can, with {@code delay}. */
    private record Probe(String why, Delay delay, String noNetem) {
    }

    static final String TUN = "tun0";
    private static final int ROUTER_LIMIT = 4096;
    private static final int ROUTE_TABLE = 100;
    private static final int PING_PORT = 20099;
    /** For a child JVM to start (on a loaded 2-core box) and for the round-trip check. */
    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    /** For one {@code ip} or {@code sysctl} command. */
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(20);
    /** {@code cbr<pid>-<what>}: a namespace of this class. */
    private static final Pattern NAMESPACE = Pattern.compile("cbr(\\d+)-.*");
    /** {@code cumulus-bench-wan-<pid>-<hex>-node<k>}: a node's driver directory ({@link #runId()}). */
    private static final Pattern DRIVER_DIR = Pattern.compile("cumulus-bench-wan-(\\d+)-.*");
    /** Guarded by Netns.class. */
    private static Probe probe;
    /** The instance not yet closed in this JVM, or null; guarded by Netns.class. */
    private static Netns open;

    private final String prefix = "cbr" + ProcessHandle.current().pid();
    private final int count;
    private final Delay delay;
    private final Thread hook;
    private Runnable beforeCleanup = () -> { };
    private ProcessSet routerSet;
    private ProcessSet.Child router;
    private String routerStats;
    private boolean closed;

    private Netns(int count, Delay delay) {
        this.count = count;
        this.delay = delay;
        this.hook = new Thread(this::close, "bench-netns-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /**
     * Why the namespaces cannot be made here, or {@code null} when they can: Linux, root, {@code ip} and
     * {@code sysctl}, and a delay mechanism (netem, else TUN). Probes the kernel once, in a namespace of its own.
     */
    static String cannotRun() {
        return probe().why();
    }

    /** The delay mechanism {@link #create} will use; only when {@link #cannotRun()} is null. */
    static Delay mechanism() {
        Probe p = probe();
        if (p.why() != null) {
            throw new IllegalStateException("cannot run: " + p.why());
        }
        return p.delay();
    }

    /** Why netem is not used (tc's error), or null when it is. */
    static String noNetem() {
        return probe().noNetem();
    }

    private static synchronized Probe probe() {
        if (probe == null) {
            if (cannotList() == null) {
                sweep();
            }
            probe = runProbe();
        }
        return probe;
    }

    /** Why {@code ip netns list} cannot run (not Linux, or no ip), or null: then {@link #sweep} can. */
    private static String cannotList() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return "network namespaces need Linux";
        }
        return find("ip") == null ? "'ip' is not installed (iproute2)" : null;
    }

    private static Probe runProbe() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return new Probe("network namespaces need Linux", null, null);
        }
        try {
            String status = Files.readString(Path.of("/proc/self/status"));
            String uid = status.lines().filter(l -> l.startsWith("Uid:")).findFirst().orElse("Uid: -1").split("\\s+")[2];
            if (!uid.equals("0")) {
                return new Probe("needs root (effective uid " + uid + ") for ip netns", null, null);
            }
        } catch (IOException | RuntimeException e) {
            return new Probe("cannot read /proc/self/status: " + e.getMessage(), null, null);
        }
        for (String tool : List.of("ip", "sysctl")) {
            if (find(tool) == null) {
                return new Probe("'" + tool + "' is not installed (iproute2 / procps)", null, null);
            }
        }
        String ns = "cbr" + ProcessHandle.current().pid() + "-probe";
        try {
            run(List.of(find("ip"), "netns", "add", ns));
        } catch (IllegalStateException e) {
            return new Probe("cannot make a network namespace: " + e.getMessage(), null, null);
        }
        try {
            run(List.of(find("ip"), "-n", ns, "link", "set", "lo", "up"));
            String noNetem = find("tc") == null ? "'tc' (iproute2) is not installed"
                : error(List.of(find("ip"), "netns", "exec", ns, find("tc"), "qdisc", "add", "dev", "lo", "root",
                    "netem", "delay", "1ms"));
            if (noNetem == null) {
                return new Probe(null, Delay.NETEM, null);
            }
            String noTun = error(List.of(find("ip"), "-n", ns, "tuntap", "add", "dev", TUN, "mode", "tun"));
            if (noTun == null) {
                return new Probe(null, Delay.TUN_ROUTER, noNetem);
            }
            return new Probe("no delay mechanism: no netem (" + noNetem + ") and no TUN device (" + noTun
                + "); needs the kernel's sch_netem or tun (/dev/net/tun)", null, noNetem);
        } finally {
            error(List.of(find("ip"), "netns", "del", ns));
        }
    }

    static String find(String tool) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(":")));
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, tool))) {
                return Path.of(d, tool).toString();
            }
        }
        return null;
    }

    /**
     * Creates the namespaces, links and routes with a one-way delay of {@code delayMs} between clusters (the
     * mechanism of {@link #mechanism()}); on any failure removes what it made and throws with the failing command's
     * error.
     */
    static Netns create(int count, int delayMs) {
        Delay mechanism = mechanism();
        Netns n;
        synchronized (Netns.class) {
            if (open != null) {
                throw new IllegalStateException("another emulated wide area of this process is still open");
            }
            sweep();
            n = new Netns(count, mechanism);
            open = n;
        }
        try {
            n.build(delayMs);
            return n;
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
    }

    private void build(int delayMs) {
        String hub = hub();
        netns(hub);
        ip("-n", hub, "link", "set", "lo", "up");
        sysctl(hub, "net.ipv4.ip_forward=1", "net.ipv4.conf.all.rp_filter=0", "net.ipv4.conf.default.rp_filter=0");
        for (int k = 0; k < count; k++) {
            String ns = name(k);
            netns(ns);
            ip("-n", ns, "link", "set", "lo", "up");
            ip("-n", ns, "link", "add", "eth0", "type", "veth", "peer", "name", "h" + k, "netns", hub);
            ip("-n", ns, "addr", "add", address(k) + "/24", "dev", "eth0");
            ip("-n", ns, "link", "set", "eth0", "up");
            ip("-n", ns, "route", "add", "default", "via", gateway(k));
            ip("-n", hub, "addr", "add", gateway(k) + "/24", "dev", "h" + k);
            ip("-n", hub, "link", "set", "h" + k, "up");
            sysctl(hub, "net.ipv4.conf.h" + k + ".rp_filter=0");
            if (delay == Delay.NETEM) {
                run(List.of(find("ip"), "netns", "exec", ns, find("tc"), "qdisc", "add", "dev", "eth0", "root",
                    "netem", "delay", delayMs + "ms", "limit", "100000"));
            }
        }
        if (delay == Delay.TUN_ROUTER) {
            startRouter(hub, delayMs);
        }
    }

    /** The TUN device, the router process in the hub (waits for its READY line), then the routes through it. */
    private void startRouter(String hub, int delayMs) {
        ip("-n", hub, "tuntap", "add", "dev", TUN, "mode", "tun");
        ip("-n", hub, "link", "set", TUN, "mtu", "" + TunDelayRouter.MTU, "up");
        sysctl(hub, "net.ipv4.conf." + TUN + ".rp_filter=0");
        try {
            ProcessSet.Child r;
            synchronized (this) { // close() stops it, or it is not started
                refuseIfClosed();
                routerSet = new ProcessSet("wide-area delay router");
                router = r = routerSet.start("router", List.of(find("ip"), "netns", "exec", hub), List.of("-Xmx64m"),
                    TunDelayRouter.class, List.of(TUN, "" + TimeUnit.MILLISECONDS.toMicros(delayMs),
                        "" + ROUTER_LIMIT, "/run/netns/" + hub));
            }
            r.await(TunDelayRouter.READY, TIMEOUT);
        } catch (CumulusException e) {
            throw new IllegalStateException("the delay router did not start: " + e.getMessage(), e);
        }
        ip("-n", hub, "route", "add", "default", "dev", TUN, "table", "" + ROUTE_TABLE);
        for (int k = 0; k < count; k++) {
            ip("-n", hub, "rule", "add", "iif", "h" + k, "lookup", "" + ROUTE_TABLE);
        }
    }

    /**
     * {@code rounds} UDP round trips from cluster {@code from} to an echo in cluster {@code to} ({@link UdpPing}, a JVM
     * in each): key -> value of its result ({@code count}, {@code lost}, {@code min}, {@code p50}, {@code max}, µs).
     *
     * @throws CumulusException when a side fails or times out (both are stopped)
     */
    Map<String, String> udpRoundTrip(int from, int to, int rounds) {
        try (ProcessSet set = new ProcessSet("UDP round trip, cluster " + from + " -> " + to)) {
            String port = "" + PING_PORT;
            ProcessSet.Child echo = set.start("echo", exec(to), List.of("-Xmx64m"), UdpPing.class,
                List.of("echo", address(to), port));
            echo.await("READY ", TIMEOUT);
            ProcessSet.Child send = set.start("send", exec(from), List.of("-Xmx64m"), UdpPing.class,
                List.of("send", address(to), port, "" + rounds));
            Map<String, String> r = ProcessSet.results(send, List.of(send, echo), TIMEOUT).get("udp.rtt.us");
            send.awaitSuccess(TIMEOUT);
            return r;
        }
    }

    Delay delay() {
        return delay;
    }

    String name(int k) {
        return prefix + "-" + k;
    }

    private String hub() {
        return prefix + "-hub";
    }

    /** Cluster {@code k}'s address (its {@code eth0}). */
    String address(int k) {
        return "10.77." + k + ".1";
    }

    private String gateway(int k) {
        return "10.77." + k + ".254";
    }

    /** Command prefix that runs a program inside cluster {@code k}. */
    List<String> exec(int k) {
        return List.of(find("ip"), "netns", "exec", name(k));
    }

    /** Runs before the namespaces are deleted (e.g. stop the processes inside them). */
    void beforeCleanup(Runnable r) {
        beforeCleanup = r;
    }

    /** The router's last {@code STATS} line (packets forwarded, dropped...) once closed; null without a router. */
    synchronized String routerStats() {
        return routerStats;
    }

    /** The router process, or null without one (for tests). */
    synchronized Process routerProcess() {
        return router == null ? null : router.process;
    }

    /**
     * Null while the router runs (or there is none, or this is closed); else that it exited, with its exit code and
     * last output. Any thread.
     */
    synchronized String routerDied() {
        if (closed || router == null || router.process.isAlive()) {
            return null;
        }
        return "the delay router exited with code " + router.process.exitValue() + "; its last output:\n"
            + router.tail();
    }

    /** Adds namespace {@code name}; refuses once closed, so that close() deletes every one made (tests call it). */
    synchronized void netns(String name) {
        refuseIfClosed();
        ip("netns", "add", name);
    }

    private void refuseIfClosed() {
        if (closed) {
            throw new IllegalStateException("the emulated wide area was closed while it was being set up");
        }
    }

    private void ip(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(find("ip"));
        cmd.addAll(List.of(args));
        run(cmd);
    }

    private void sysctl(String ns, String... settings) {
        List<String> cmd = new ArrayList<>(List.of(find("ip"), "netns", "exec", ns, find("sysctl"), "-q", "-w"));
        cmd.addAll(List.of(settings));
        run(cmd);
    }

    private static void run(List<String> cmd) {
        String e = error(cmd);
        if (e != null) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed: " + e);
        }
    }

    /** Runs {@code cmd} for at most {@link #COMMAND_TIMEOUT}; null when it succeeded, else what went wrong. */
    private static String error(List<String> cmd) {
        return exec(cmd, COMMAND_TIMEOUT).error();
    }

    /** How a command went: {@code error} is null when it exited with 0, else what went wrong. */
    record Outcome(String error, String output) {
    }

    /**
     * Runs {@code cmd} for at most {@code timeout}, then kills it; its output (stdout and stderr) goes to a temporary
     * file, read once it exited, so that a command that never exits cannot block this thread.
     */
    static Outcome exec(List<String> cmd, Duration timeout) {
        Path out = null;
        Process p = null;
        try {
            out = Files.createTempFile("cumulus-netns-", ".out");
            p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                return new Outcome("timed out after " + timeout.toMillis() + " ms", "");
            }
            String output = Files.readString(out, StandardCharsets.UTF_8).trim();
            return new Outcome(p.exitValue() == 0 ? null : "exit " + p.exitValue() + ": " + output, output);
        } catch (IOException e) {
            return new Outcome(String.valueOf(e.getMessage()), "");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Outcome("interrupted", "");
        } finally {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
                try {
                    p.waitFor(5, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException ignored) {
                    // best effort
                }
            }
        }
    }

    /** The names {@code ip netns list} shows (empty when it fails). */
    private static List<String> namespaces() {
        Outcome o = exec(List.of(find("ip"), "netns", "list"), COMMAND_TIMEOUT);
        return o.error() != null ? List.of()
            : o.output().lines().map(l -> l.split("\\s+")[0]).filter(n -> !n.isEmpty()).toList();
    }

    /** Names of this process's namespaces that still exist (for tests). */
    List<String> remaining() {
        return namespaces().stream().filter(n -> n.startsWith(prefix + "-")).toList();
    }

    /**
     * Deletes what killed runs left behind: every namespace {@code cbr<N>-*} and every driver directory
     * {@code cumulus-bench-wan-<N>-*} whose process N is gone, and this process's own when it has none open (they
     * are then a dead process's that had the same pid). Returns what it deleted.
     */
    static synchronized List<String> sweep() {
        List<String> deleted = new ArrayList<>();
        for (String ns : namespaces()) {
            if (stale(NAMESPACE.matcher(ns)) && error(List.of(find("ip"), "netns", "del", ns)) == null) {
                deleted.add(ns);
            }
        }
        try (Stream<Path> dirs = Files.list(ProcessSet.driverRoot())) {
            for (Path d : dirs.toList()) {
                if (stale(DRIVER_DIR.matcher(d.getFileName().toString())) && DriverDirectories.deleteTree(d)) {
                    deleted.add(d.toString());
                }
            }
        } catch (IOException ignored) {
            // best effort
        }
        return deleted;
    }

    private static boolean stale(Matcher m) {
        if (!m.matches()) {
            return false;
        }
        long pid = Long.parseLong(m.group(1));
        return ProcessHandle.of(pid).isEmpty() || pid == ProcessHandle.current().pid() && open == null;
    }


    /**
     * A fresh run id for Table 4's nodes, {@code bench-wan-<pid>-<hex>}: their driver directories are then
     * {@code cumulus-bench-wan-<pid>-<hex>-node<k>}, which {@link #sweep} deletes once this process is gone.
     */
    static String runId() {
        return "bench-wan-" + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime());
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            beforeCleanup.run();
        } catch (RuntimeException ignored) {
            // delete the namespaces anyway
        }
        stopRouter();
        for (String ns : remaining()) {
            error(List.of(find("ip"), "netns", "del", ns)); // best effort; the rest still go
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // called from the hook itself
        }
        synchronized (Netns.class) {
            if (open == this) {
                open = null;
            }
        }
    }

    /**
     * SIGTERM to the router, which prints its STATS line and exits; then the set reaps it. Through the process
     * handle: {@code Process.destroy()} would also close the router's stdin, and the router exits at once on that.
     */
    private void stopRouter() {
        if (routerSet == null) {
            return;
        }
        if (router != null && router.process.isAlive()) {
            router.process.toHandle().destroy();
            try {
                routerStats = router.await("STATS ", Duration.ofSeconds(5));
            } catch (CumulusException e) {
                routerStats = "unknown (" + e.getMessage().lines().findFirst().orElse("") + ")";
            }
        }
        routerSet.close();
    }
}
