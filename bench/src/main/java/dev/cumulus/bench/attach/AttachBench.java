package dev.cumulus.bench.attach;

import dev.cumulus.bench.RpcBench;
import dev.cumulus.cli.launch.ClusterLauncher;
import dev.cumulus.cli.launch.DriverDirectories;
import dev.cumulus.cli.launch.LaunchContext;
import dev.cumulus.cli.launch.RunResult;
import dev.cumulus.cli.standing.AttachedRun;
import dev.cumulus.cli.standing.ClusterRecord;
import dev.cumulus.cli.standing.ClusterRegistry;
import dev.cumulus.cli.standing.ClusterStop;
import dev.cumulus.cli.standing.KeeperProcess;
import dev.cumulus.internal.service.ClientCredential;
import dev.cumulus.internal.launch.LaunchConfig.TransportMode;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code cumulus bench rpc --attach}: starts a standing cluster of two servers (the bench's classes on their
 * classpath), runs {@link AttachProbe} as its client several times — the first is the cluster's first client (cold
 * servers), the others find them warm — and once as node 0 of a two-node SPMD run, and prints the client's call
 * against the SPMD one as a ratio (goal: at most 1.2) and the time from starting {@code run --attach} to the first
 * remote call done, split into its parts. Leaves no cluster, process or file behind.
 */
public final class AttachBench {
    /** The goal for a client's call against a node's. */
    static final double GOAL_RATIO = 1.2;

    private AttachBench() {
    }

    public static int run(boolean quick, PrintStream out, PrintStream err) {
        int warmup = quick ? 2_000 : 50_000;
        int measured = quick ? 2_000 : 100_000;
        int warmRuns = quick ? 1 : 3;
        String cp = System.getProperty("java.class.path");
        Path config;
        try {
            config = Files.createTempDirectory("cumulus-bench-attach-" + ProcessHandle.current().pid() + "-");
        } catch (IOException e) {
            err.println("cumulus bench: cannot make a temporary directory: " + e.getMessage());
            return 1;
        }
        ClusterRegistry registry = new ClusterRegistry(config);
        String name = "bench-attach-" + ProcessHandle.current().pid();
        List<String> probeArgs = List.of(Integer.toString(warmup), Integer.toString(measured));
        try {
            long startNs = System.nanoTime();
            ClusterRecord cluster = KeeperProcess.start(registry, name, 2, cp, Duration.ofSeconds(60), null);
            out.printf(Locale.ROOT, "standing cluster of 2 servers up in %d ms%n",
                (System.nanoTime() - startNs) / 1_000_000);
            List<String> clientJvm = List.of("-D" + ClientCredential.PROPERTY + "=" + grantProbe(registry, cluster));
            List<Map<String, Long>> attached = new ArrayList<>();
            for (int i = 0; i <= warmRuns; i++) {
                long launchedMs = System.currentTimeMillis();
                ByteArrayOutputStream o = new ByteArrayOutputStream();
                int code = AttachedRun.run(registry, name, cp, AttachProbe.class.getName(), probeArgs, clientJvm,
                    ProcessBuilder.Redirect.from(new File("/dev/null")), new PrintStream(o, true,
                        StandardCharsets.UTF_8), err);
                Map<String, Long> p = probe(o.toString(StandardCharsets.UTF_8));
                if (code != 0 || !p.containsKey("sync-p50-ns")) {
                    err.println("cumulus bench: the attached probe failed (exit " + code + "):\n" + o);
                    return 1;
                }
                p.put("launched-epoch-ms", launchedMs);
                attached.add(p);
            }
            Map<String, Long> spmd = spmd(cp, probeArgs, config.resolve("cumulus-runs"), err);
            if (spmd == null) {
                return 1;
            }
            report(attached, spmd, out);
            return 0;
        } finally {
            ClusterStop.stop(registry, name, err); // the keeper, its servers, driver directory and state file
            DriverDirectories.deleteTree(config);
        }
    }

    /**
     * The probe's credential (as {@code cumulus cluster grant NAME bench} writes it), in the bench's own configuration
     * directory, which goes with the cluster.
     */
    private static Path grantProbe(ClusterRegistry registry, ClusterRecord cluster) {
        Path file = ClientCredential.defaultFile(registry.configDir(), cluster.name(), "bench");
        ClientCredential.grant(cluster.name(), cluster.runId(), HexFormat.of().parseHex(cluster.adminCredential()),
            "bench").write(file);
        return file;
    }

    /** The same probe between two nodes of a run, whose run directory goes under {@code runsRoot}. */
    private static Map<String, Long> spmd(String cp, List<String> probeArgs, Path runsRoot, PrintStream err) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        PrintStream po = new PrintStream(o, true, StandardCharsets.UTF_8);
        LaunchContext ctx = new LaunchContext().nodes(2).classpath(cp).mainClass(AttachProbe.class.getName())
            .programArgs(probeArgs).transport(TransportMode.IPC).runsRoot(runsRoot);
        RunResult r = new ClusterLauncher(ctx, po, po).run();
        Map<String, Long> p = probe(o.toString(StandardCharsets.UTF_8));
        if (r.exitCode() != 0 || !p.containsKey("sync-p50-ns")) {
            err.println("cumulus bench: the SPMD probe failed (exit " + r.exitCode() + "):\n" + o);
            return null;
        }
        return p;
    }

    /** The {@code PROBE name value} lines of {@code output} (a node's prefix before them is skipped). */
    static Map<String, Long> probe(String output) {
        Map<String, Long> m = new HashMap<>();
        for (String line : output.split("\n")) {
            int at = line.indexOf("PROBE ");
            if (at < 0) {
                continue;
            }
            String[] f = line.substring(at + "PROBE ".length()).trim().split(" ");
            if (f.length == 2) {
                m.put(f[0], Long.parseLong(f[1]));
            }
        }
        return m;
    }

    private static void report(List<Map<String, Long>> attached, Map<String, Long> spmd, PrintStream out) {
        Map<String, Long> warm = attached.get(attached.size() - 1);
        double clientNs = median(attached.subList(1, attached.size()), "sync-p50-ns");
        double nodeNs = spmd.get("sync-p50-ns");
        double ratio = clientNs / nodeNs;
        out.printf(Locale.ROOT, "sync call, 32 bytes, p50: client -> server %.2f us, SPMD node 0 -> node 1 %.2f us: "
            + "%sx (goal <= %.1fx: %s)%n", clientNs / 1e3, nodeNs / 1e3, RpcBench.ratio(ratio), GOAL_RATIO,
            ratio <= GOAL_RATIO ? "met" : "missed");
        out.printf(Locale.ROOT, "  p99: client %.2f us, node %.2f us; calls/s: client %d, node %d%n",
            warm.get("sync-p99-ns") / 1e3, spmd.get("sync-p99-ns") / 1e3, warm.get("sync-calls-per-s"),
            spmd.get("sync-calls-per-s"));
        out.println("run --attach to the first remote call done (ms): total = JVM to main + join + remoteNew + "
            + "first call + the rest (the launcher's own start, its classpath check, process start)");
        for (int i = 0; i < attached.size(); i++) {
            Map<String, Long> p = attached.get(i);
            long total = p.get("first-call-epoch-ms") - p.get("launched-epoch-ms");
            long parts = p.get("jvm-to-main-ms") + (p.get("join-us") + p.get("remote-new-us")
                + p.get("first-call-us")) / 1000;
            out.printf(Locale.ROOT, "  %-6s %5d = %4d + %4d + %4d + %4d + %4d%n", i == 0 ? "cold" : "warm " + i,
                total, p.get("jvm-to-main-ms"), p.get("join-us") / 1000, p.get("remote-new-us") / 1000,
                p.get("first-call-us") / 1000, total - parts);
        }
    }

    private static double median(List<Map<String, Long>> runs, String key) {
        double[] v = runs.stream().mapToDouble(m -> m.get(key)).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

}
