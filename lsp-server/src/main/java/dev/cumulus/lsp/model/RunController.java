package dev.cumulus.lsp.model;

import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileRecord;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the user's program with {@code cumulus run --nodes N --profile-stream [--single-vm] -cp CLASSES MAIN} as a child
 * process (one run at a time), splits its output into per-node lines ({@code [i] } prefixes) and reports state
 * changes. Output is read on two daemon threads per run; listener calls come from those threads.
 */
public final class RunController {
    private static final Logger LOG = Logger.getLogger(RunController.class.getName());
    private static final Pattern NODE_PREFIX = Pattern.compile("^\\[(\\d+)] ?(.*)$");
    private static final Pattern RUN_DIR = Pattern.compile("^cumulus: run \\S+ directory: (.+)$");

    /** What a run reports. */
    public interface Listener {
        /** One output line; {@code node} is -1 for the launcher's own lines; {@code stream} is stdout or stderr. */
        void onOutput(int node, String line, String stream);

        /** {@code state} is starting, running, finished or failed; {@code exitCode} is null until the end. */
        void onStatus(String state, Integer exitCode, String runDir, String message);

        /**
         * One record of the run's profile channel, read from a {@code @cumulus-profile } line: a node's live window, or
         * the report at the end (docs/design/PROFILER.md).
         */
        default void onProfile(ProfileRecord record) {
        }

        /** A node started under the debugger agent listens at {@code host:port} (a {@code @cumulus-debug} line). */
        default void onDebugReady(int node, String host, int port) {
        }
    }

    /** Prefix of the launcher's live profile lines ({@code cumulus run --profile-stream}). */
    static final String PROFILE_LINE = "@cumulus-profile ";
    /** The launcher's line for a node that waits for a debugger ({@code cumulus run --debug}). */
    static final Pattern DEBUG_LINE = Pattern.compile("^@cumulus-debug node=(\\d+) host=(\\S+) port=(\\d+)\\s*$");

    private Process process;
    private volatile String runDir;

    /** True while a run's process is alive. */
    public synchronized boolean running() {
        return process != null && process.isAlive();
    }

    /**
     * Starts a run. Writes {@code classes} (internal name to bytes) under {@code workDir}/classes first. Nodes in
     * {@code debugNodes} start under the debugger agent ({@code cumulus run --debug}); each is told to
     * {@link Listener#onDebugReady} when it listens. {@code singleVm}: the program is one multithreaded Java program
     * over the nodes ({@code cumulus run --single-vm}).
     *
     * @throws IllegalStateException if a run is already going, with a message that says what to do
     */
    public synchronized void start(Path cumulus, Path projectDir, int nodes, String mainClass, List<Integer> debugNodes,
                                   boolean singleVm, Map<String, byte[]> classes, List<Path> extraClasspath,
                                   Path workDir, Listener listener) throws IOException {
        if (running()) {
            throw new IllegalStateException("a run is still going; stop it first (cumulus.stop)");
        }
        Path classDir = workDir.resolve("classes");
        deleteTree(classDir);
        for (Map.Entry<String, byte[]> e : classes.entrySet()) {
            Path f = classDir.resolve(e.getKey() + ".class");
            Files.createDirectories(f.getParent());
            Files.write(f, e.getValue());
        }
        List<String> cp = new ArrayList<>();
        cp.add(classDir.toString());
        extraClasspath.forEach(p -> cp.add(p.toString()));
        List<String> cmd = new ArrayList<>(List.of(cumulus.toString(), "run", "--nodes", Integer.toString(nodes),
                "--profile-stream"));
        if (singleVm) {
            cmd.add("--single-vm");
        }
        if (!debugNodes.isEmpty()) {
            cmd.add("--debug");
            cmd.add(String.join(",", debugNodes.stream().map(String::valueOf).toList()));
        }
        cmd.addAll(List.of("-cp", String.join(File.pathSeparator, cp), mainClass));
        runDir = null;
        listener.onStatus("starting", null, null, String.join(" ", cmd));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.PIPE);
        if (projectDir != null) {
            pb.directory(projectDir.toFile());
        }
        Process p = pb.start();
        p.getOutputStream().close();
        process = p;
        listener.onStatus("running", null, null, "pid " + p.pid());
        Thread out = pump(p.getInputStream(), "stdout", listener);
        Thread err = pump(p.getErrorStream(), "stderr", listener);
        Thread waiter = new Thread(() -> {
            try {
                int code = p.waitFor();
                out.join();
                err.join();
                listener.onStatus(code == 0 ? "finished" : "failed", code, runDir,
                        code == 0 ? "run finished" : "run ended with exit code " + code);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "cumulus-run-wait");
        waiter.setDaemon(true);
        waiter.start();
    }

    private Thread pump(InputStream in, String stream, Listener listener) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    if (line.startsWith(PROFILE_LINE)) {
                        profile(line.substring(PROFILE_LINE.length()), listener);
                        continue;
                    }
                    Matcher debug = DEBUG_LINE.matcher(line);
                    if (debug.matches()) {
                        listener.onDebugReady(Integer.parseInt(debug.group(1)), debug.group(2),
                                Integer.parseInt(debug.group(3)));
                    }
                    Matcher d = RUN_DIR.matcher(line);
                    if (d.matches()) {
                        runDir = d.group(1).trim();
                    }
                    Matcher m = NODE_PREFIX.matcher(line);
                    if (m.matches()) {
                        listener.onOutput(Integer.parseInt(m.group(1)), m.group(2), stream);
                    } else {
                        listener.onOutput(-1, line, stream);
                    }
                }
            } catch (IOException | RuntimeException e) {
                LOG.log(Level.FINE, "run output ended", e);
            }
        }, "cumulus-run-" + stream);
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void profile(String json, Listener listener) {
        ProfileRecord record;
        try {
            record = ProfileGson.read(json);
        } catch (IllegalArgumentException e) {
            LOG.log(Level.FINE, "a profile line that is no record of the channel", e);
            return;
        }
        listener.onProfile(record);
    }

    /**
     * Stops the run: SIGTERM to the launcher (which stops its nodes and cleans up, like Ctrl-C), then after
     * {@code graceMs} kills whatever is left. Returns false if nothing was running.
     */
    public boolean stop(long graceMs) {
        Process p;
        synchronized (this) {
            p = process;
        }
        if (p == null || !p.isAlive()) {
            return false;
        }
        List<ProcessHandle> children = p.descendants().toList();
        p.destroy();
        try {
            if (!p.waitFor(graceMs, TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        return true;
    }

    private static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (var s = Files.walk(dir)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(f);
            }
        }
    }
}
