package dev.cumulus.bench.replication;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Emulated wide-area "clusters" for Table 4: {@code count} network namespaces {@code cbr<pid>-<k>}, each with one
 * veth {@code eth0} (address 10.77.0.(k+1)/24, egress delayed by {@code tc netem}) whose peer sits on a bridge in a
 * hub namespace {@code cbr<pid>-hub}. A packet between two clusters crosses one netem (the sender's), so the one-way
 * delay is the netem delay, the round trip twice it. The namespaces have no route out: their traffic never leaves
 * the namespaces this class made. {@link #close()} (also from a shutdown hook) deletes every namespace, which deletes
 * the veths and the bridge with them.
 */
final class Netns implements AutoCloseable {
    private final String prefix = "cbr" + ProcessHandle.current().pid();
    private final List<String> created = new ArrayList<>();
    private final int count;
    private final Thread hook;
    private Runnable beforeCleanup = () -> { };
    private boolean closed;

    private Netns(int count) {
        this.count = count;
        this.hook = new Thread(this::close, "bench-netns-cleanup");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Why the namespaces cannot be made here, or {@code null} when they can (root, ip, tc present). */
    static String cannotRun() {
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            return "network namespaces need Linux";
        }
        try {
            String status = Files.readString(Path.of("/proc/self/status"));
            String uid = status.lines().filter(l -> l.startsWith("Uid:")).findFirst().orElse("Uid: -1").split("\\s+")[2];
            if (!uid.equals("0")) {
                return "needs root (effective uid " + uid + ") for ip netns / tc";
            }
        } catch (IOException | RuntimeException e) {
            return "cannot read /proc/self/status: " + e.getMessage();
        }
        for (String tool : List.of("ip", "tc")) {
            if (find(tool) == null) {
                return "'" + tool + "' (iproute2) is not installed";
            }
        }
        return null;
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

    /** Creates the namespaces and links; on any failure removes what it made and throws with the command's error. */
    static Netns create(int count, int delayMs) {
        Netns n = new Netns(count);
        try {
            String hub = n.prefix + "-hub";
            n.netns(hub);
            n.ip("-n", hub, "link", "set", "lo", "up");
            n.ip("-n", hub, "link", "add", "br0", "type", "bridge");
            n.ip("-n", hub, "link", "set", "br0", "up");
            for (int k = 0; k < count; k++) {
                String ns = n.name(k);
                n.netns(ns);
                n.ip("-n", ns, "link", "set", "lo", "up");
                n.ip("-n", ns, "link", "add", "eth0", "type", "veth", "peer", "name", "h" + k, "netns", hub);
                n.ip("-n", ns, "addr", "add", n.address(k) + "/24", "dev", "eth0");
                n.ip("-n", ns, "link", "set", "eth0", "up");
                n.ip("-n", hub, "link", "set", "h" + k, "master", "br0");
                n.ip("-n", hub, "link", "set", "h" + k, "up");
                if (delayMs > 0) { // 0: no netem (a check of the namespace set-up on kernels without sch_netem)
                    n.run(List.of(find("ip"), "netns", "exec", ns, find("tc"), "qdisc", "add", "dev", "eth0", "root",
                        "netem", "delay", delayMs + "ms", "limit", "100000"));
                }
            }
            return n;
        } catch (RuntimeException e) {
            n.close();
            throw e;
        }
    }

    String name(int k) {
        return prefix + "-" + k;
    }

    String address(int k) {
        return "10.77.0." + (k + 1);
    }

    /** Command prefix that runs a program inside cluster {@code k}. */
    List<String> exec(int k) {
        return List.of(find("ip"), "netns", "exec", name(k));
    }

    /** Runs before the namespaces are deleted (e.g. stop the processes inside them). */
    void beforeCleanup(Runnable r) {
        beforeCleanup = r;
    }

    private void netns(String name) {
        ip("netns", "add", name);
        created.add(name);
    }

    private void ip(String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(find("ip"));
        cmd.addAll(List.of(args));
        run(cmd);
    }

    private static void run(List<String> cmd) {
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", cmd) + ": timed out");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + p.exitValue() + "): "
                    + output);
            }
        } catch (IOException e) {
            throw new IllegalStateException(String.join(" ", cmd) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(String.join(" ", cmd) + ": interrupted", e);
        }
    }

    /** Names of the namespaces that still exist (for tests). */
    List<String> remaining() {
        try {
            Process p = new ProcessBuilder(find("ip"), "netns", "list").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(10, TimeUnit.SECONDS);
            return out.lines().map(l -> l.split("\\s+")[0]).filter(l -> l.startsWith(prefix + "-")).toList();
        } catch (IOException | InterruptedException e) {
            return List.of("? " + e);
        }
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
        for (int i = created.size() - 1; i >= 0; i--) {
            try {
                ip("netns", "del", created.get(i));
            } catch (RuntimeException ignored) {
                // best effort; the rest still go
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // called from the hook itself
        }
    }

    int count() {
        return count;
    }
}
