package dev.cumulus.cli.launch;

import dev.cumulus.CumulusException;
import dev.cumulus.cli.ship.ClassManifest;
import dev.cumulus.cli.ship.ClassSender;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * The launcher's end of a {@link HostAgent} on another host: the ssh or srun process that runs it ({@link HostReach}),
 * what it said when ready (the host's address for its peers, the launcher's address as that host sees it, the host's
 * driver and run directories), and the files it sends back. Its stderr is copied to the launcher's with the prefix
 * {@code [HOST] }. Closing it closes the agent's stdin, which makes the agent clean the host up and end.
 */
final class RemoteHost implements AutoCloseable {
    /** How long a host has to connect and start its driver. */
    static final Duration READY_WAIT = Duration.ofSeconds(60);
    private static final Duration END_WAIT = Duration.ofSeconds(15);

    private final String name;
    /** The java the agent and the nodes run with on the host. */
    private final String java;
    private final HostReach reach;
    private final Process process;
    private final OutputPump stderr;
    private final OutputTail tail;
    private final InputStream in;
    private final OutputStream toAgent;
    private String address;
    private String launcherAddress;
    private String driverDir;
    private String runDir;

    private RemoteHost(String name, HostReach reach, Process process, OutputPump stderr, OutputTail tail,
        String java) {
        this.name = name;
        this.java = java;
        this.reach = reach;
        this.process = process;
        this.stderr = stderr;
        this.tail = tail;
        this.in = process.getInputStream();
        this.toAgent = process.getOutputStream();
    }

    /**
     * Starts the agent on {@code host} through ssh or srun, after a check of the host's Java ({@link HostJava});
     * {@link #awaitReady} waits for it.
     *
     * @param agentCommand the agent's command line on the host (java, flags, classpath, main class, arguments)
     */
    static RemoteHost start(String host, HostReach reach, List<String> agentCommand, PrintStream err) {
        List<String> cmd = reach.shellCommand(host, HostJava.checkedLine(agentCommand));
        Process p;
        try {
            p = new ProcessBuilder(cmd).start();
        } catch (IOException e) {
            throw new LaunchException("cannot run " + cmd.getFirst() + " to reach host " + host + " ("
                + e.getMessage() + "); " + (reach instanceof Srun ? "inside a Slurm job, cumulus run needs Slurm's "
                + "srun on the PATH" : "--hosts needs OpenSSH's client (ssh) on the PATH"));
        }
        OutputTail tail = new OutputTail(10);
        OutputPump pump = OutputPump.start("cumulus-host-" + host + "-err", p.getErrorStream(), err,
            "[" + host + "] ", tail);
        return new RemoteHost(host, reach, p, pump, tail, agentCommand.getFirst());
    }

    /**
     * Waits until the agent said it is ready.
     *
     * @throws LaunchException naming the host and what ssh or the agent said, when it ended or did not answer in time
     */
    void awaitReady(Duration max) {
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                return HostAgent.readLine(in);
            } catch (IOException e) {
                return null;
            }
        }, r -> {
            Thread t = new Thread(r, "cumulus-host-" + name + "-ready");
            t.setDaemon(true);
            t.start();
        });
        String line;
        try {
            line = ready.get(max.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new LaunchException("host " + name + " did not answer within " + ClusterLauncher.format(max)
                + " (" + (reach instanceof Srun ? "srun" : "ssh connected but")
                + " the Cumulus host agent did not start)"
                + said());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LaunchException("interrupted while starting host " + name);
        } catch (ExecutionException e) {
            line = null;
        }
        String[] f = line == null ? new String[0] : line.split(" ");
        if (f.length != 5 || !f[0].equals(HostAgent.READY)) {
            throw new LaunchException(failure());
        }
        address = f[1];
        launcherAddress = f[2];
        driverDir = f[3];
        runDir = f[4];
    }

    private String failure() {
        int code;
        try {
            process.waitFor(5, TimeUnit.SECONDS);
            stderr.join(Duration.ofSeconds(2));
            code = process.isAlive() ? -1 : process.exitValue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            code = -1;
        }
        if (code == HostJava.EXIT_NO_JAVA) {
            String noJava = HostJava.explain(java, tail.lines());
            if (noJava != null) {
                return "cannot start on host " + name + ": " + noJava;
            }
        }
        String explained = code < 0 ? null : reach.explain(name, code);
        if (explained == null && code >= 0 && lacksRuntime(tail.lines())) {
            return "cannot start on host " + name + ": " + NO_RUNTIME;
        }
        String how = explained != null ? explained
            : code == HostAgent.EXIT_CANNOT_START ? "the Cumulus host agent could not start there"
            : "the Cumulus host agent ended" + (code < 0 ? "" : " with exit code " + code);
        return "cannot start on host " + name + ": " + how + said();
    }

    /** Why a host whose java could not load the agent's class cannot take part. */
    static final String NO_RUNTIME = "the Cumulus runtime is not installed there at the launcher's paths (its java "
        + "cannot load the host agent); install the same Cumulus release at the same path on every host (./cumulus "
        + "classpath here prints the paths)";

    /** Whether the agent's last lines say its java found no agent class: the runtime is not at the launcher's paths. */
    static boolean lacksRuntime(List<String> lines) {
        String missing = "Could not find or load main class " + HostAgent.class.getName();
        return lines.stream().anyMatch(l -> l.contains(missing));
    }

    private String said() {
        List<String> lines = tail.lines();
        return lines.isEmpty() ? "" : "; it said: " + String.join(" / ", lines);
    }

    String name() {
        return name;
    }

    /** The host's address for the other hosts (as its ssh server saw the connection): its nodes' endpoints' host. */
    String address() {
        return address;
    }

    /** The launcher's address as the host sees it. */
    String launcherAddress() {
        return launcherAddress;
    }

    String driverDir() {
        return driverDir;
    }

    String runDir() {
        return runDir;
    }

    /**
     * Copies the host's run directory files whose names end with {@code suffix} into {@code dir} (same names).
     *
     * @throws CumulusException when the agent is gone or its answer is cut short
     */
    synchronized void fetch(String suffix, Path dir) {
        try {
            HostAgent.writeLine(toAgent, HostAgent.FETCH + " " + suffix);
            String line;
            while ((line = HostAgent.readLine(in)) != null && !line.equals(HostAgent.END)) {
                String[] f = line.split(" ");
                if (f.length != 3 || !f[0].equals(HostAgent.FILE) || f[1].contains("/") || f[1].startsWith(".")) {
                    throw new CumulusException("host " + name + " sent '" + line + "' where a file was expected");
                }
                long length = Long.parseLong(f[2]);
                try (OutputStream file = Files.newOutputStream(dir.resolve(f[1]))) {
                    copy(length, file);
                }
            }
            if (line == null) {
                throw new CumulusException("host " + name + "'s agent ended while sending the run's files (its ssh session "
                    + "ended: the host may be down or unreachable); what it had not sent is not in the run directory");
            }
        } catch (IOException | NumberFormatException e) {
            throw new CumulusException("cannot fetch the run's files from host " + name + ": " + e.getMessage(), e);
        }
    }

    private void copy(long length, OutputStream file) throws IOException {
        byte[] buf = new byte[64 * 1024];
        long left = length;
        while (left > 0) {
            int n = in.read(buf, 0, (int) Math.min(buf.length, left));
            if (n < 0) {
                throw new IOException("the stream ended " + left + " bytes before the file's end");
            }
            file.write(buf, 0, n);
            left -= n;
        }
    }

    /**
     * Ships the program's classpath to the host's class cache ({@link ClassSender}); what the host lacked is sent.
     *
     * @throws LaunchException naming the host and what went wrong
     */
    synchronized ClassSender.Shipment ship(ClassManifest manifest, Consumer<String> progress) {
        try {
            return ClassSender.ship(manifest, name, in, toAgent, progress);
        } catch (IOException e) {
            throw new LaunchException("cannot ship the program's classes to host " + name + ": " + e.getMessage()
                + said());
        }
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Ends the agent: closes its stdin, so it cleans the host up (nodes left, driver and run directories) and exits;
     * kills ssh (or srun) if it has not ended in time. Idempotent.
     */
    @Override
    public void close() {
        try {
            toAgent.close();
        } catch (IOException e) {
            // already closed, or ssh is gone: the agent sees its stdin end either way
        }
        try {
            if (!process.waitFor(END_WAIT.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
            stderr.join(Duration.ofSeconds(2));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
