package dev.cumulus.cli.launch;

import dev.cumulus.CumulusException;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One node JVM the launcher started: its process, the two pumps that copy its output, the tail of its output, and
 * whether the launcher itself asked it to stop (such a node's exit code does not count against the run). The node's
 * stdin is a pipe this process holds open and never writes: when the launcher dies, the pipe's end of file tells the
 * node at once ({@code LauncherWatch}).
 */
final class NodeProcess {
    private final int id;
    private final Process process;
    private final OutputPump stdout;
    private final OutputPump stderr;
    private final OutputTail tail;
    private volatile boolean stopRequested;

    private NodeProcess(int id, Process process, OutputPump stdout, OutputPump stderr, OutputTail tail) {
        this.id = id;
        this.process = process;
        this.stdout = stdout;
        this.stderr = stderr;
        this.tail = tail;
    }

    /** Starts the node with stdin held open (empty), stdout and stderr pumped with prefix {@code [id] }. */
    static NodeProcess start(int id, List<String> command, PrintStream out, PrintStream err, int tailLines) {
        ProcessBuilder pb = new ProcessBuilder(command);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new CumulusException("could not start node " + id + " (" + command.getFirst() + "): " + e.getMessage(), e);
        }
        OutputTail tail = new OutputTail(tailLines);
        String prefix = "[" + id + "] ";
        OutputPump o = OutputPump.start("cumulus-node-" + id + "-out", p.getInputStream(), out, prefix, tail);
        OutputPump e = OutputPump.start("cumulus-node-" + id + "-err", p.getErrorStream(), err, prefix, tail);
        return new NodeProcess(id, p, o, e, tail);
    }

    int id() {
        return id;
    }

    Process process() {
        return process;
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
