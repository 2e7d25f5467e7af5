package dev.cumulus.cli.launch;

import dev.cumulus.CumulusException;

import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.launch.LauncherWatch;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One node JVM the launcher started: its process, the two pumps that copy its output, the tail of its output, and
 * whether the launcher itself asked it to stop (such a node's exit code does not count against the run). The node's
 * stdin is a pipe this process holds open; it writes the run's secret there first ({@code NodeSecret}: never on a
 * command line), then nothing more for a local node: when the launcher dies, the pipe's end of file tells the
 * node at once ({@code LauncherWatch}). A node on another host is the local {@code ssh} process that runs it there: a
 * signal to ssh would not reach it, so it is asked to stop with a line on its stdin ({@code LauncherWatch.STOP}), and
 * killing ssh ends its stdin there, which halts it.
 */
final class NodeProcess {
    private final int id;
    private final Process process;
    private final OutputPump stdout;
    private final OutputPump stderr;
    private final OutputTail tail;
    private final String host;
    private volatile boolean stopRequested;

    private NodeProcess(int id, Process process, OutputPump stdout, OutputPump stderr, OutputTail tail, String host) {
        this.id = id;
        this.host = host;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.tail = tail;
    }

    /**
     * Starts the node with stdin held open after the secret's line, stdout and stderr pumped with prefix
     * {@code [id] }.
     */
    static NodeProcess start(int id, List<String> command, RunSecret secret, PrintStream out, PrintStream err,
                             int tailLines) {
        return start(id, command, secret, out, err, tailLines, null);
    }

    /**
     * As {@link #start(int, List, RunSecret, PrintStream, PrintStream, int)}; {@code host} names the other host when
     * {@code command} is the ssh command that runs the node there (ssh hands the secret's line on), else null.
     */
    static NodeProcess start(int id, List<String> command, RunSecret secret, PrintStream out, PrintStream err,
                             int tailLines, String host) {
        ProcessBuilder pb = new ProcessBuilder(command);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new CumulusException("could not start node " + id + " (" + command.getFirst() + "): " + e.getMessage(), e);
        }
        try {
            OutputStream stdin = p.getOutputStream();
            stdin.write((secret.line() + "\n").getBytes(StandardCharsets.US_ASCII));
            stdin.flush();
        } catch (IOException e) {
            // it died at once; its exit and output say why
        }
        OutputTail tail = new OutputTail(tailLines);
        String prefix = "[" + id + "] ";
        OutputPump o = OutputPump.start("cumulus-node-" + id + "-out", p.getInputStream(), out, prefix, tail);
        OutputPump e = OutputPump.start("cumulus-node-" + id + "-err", p.getErrorStream(), err, prefix, tail);
        return new NodeProcess(id, p, o, e, tail, host);
    }

    int id() {
        return id;
    }

    /** Runs {@code r} (it must not block) when the node prints the JVM's thread dump (it got SIGQUIT: Ctrl-\). */
    void onJvmThreadDump(Runnable r) {
        stdout.onJvmThreadDump(r);
    }

    Process process() {
        return process;
    }

    /** The other host this node runs on (through ssh), or null for this host. */
    String host() {
        return host;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code; only after the process ended. Killed by signal S on POSIX: 128 + S. */
    int exitCode() {
        return process.exitValue();
    }

    boolean stopRequested() {
        return stopRequested;
    }

    /**
     * Asks the node (and anything it started) to end: SIGTERM on POSIX, so its shutdown hooks and JFR dump run. Through
     * its {@link ProcessHandle}, which only signals: {@link Process#destroy()} would also close the node's stdin (which
     * the node takes for its launcher's death, and halts at once) and the output pumps' streams (losing its last lines).
     */
    void requestStop() {
        stopRequested = true;
        if (host != null) {
            try {
                OutputStream stdin = process.getOutputStream();
                stdin.write((LauncherWatch.STOP + "\n").getBytes(StandardCharsets.US_ASCII));
                stdin.flush();
            } catch (IOException e) {
                // ssh is gone already: so is the node's stdin on its host, which halts it
            }
            return;
        }
        List<ProcessHandle> children = process.descendants().toList();
        process.toHandle().destroy();
        children.forEach(ProcessHandle::destroy);
    }

    /** Kills the node (and anything it started): SIGKILL on POSIX. */
    void forceStop() {
        stopRequested = true;
        List<ProcessHandle> children = process.descendants().toList();
        process.destroyForcibly();
        children.forEach(ProcessHandle::destroyForcibly);
    }

    boolean waitFor(long timeoutNs) throws InterruptedException {
        return process.waitFor(Math.max(0, timeoutNs), TimeUnit.NANOSECONDS);
    }

    /** Waits for both pumps to copy the last of the node's output; true if they finished within {@code max}. */
    boolean joinOutput(Duration max) throws InterruptedException {
        long deadline = System.nanoTime() + max.toNanos();
        boolean a = stdout.join(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
        boolean b = stderr.join(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
        return a && b;
    }

    List<String> lastLines() {
        return tail.lines();
    }
}
