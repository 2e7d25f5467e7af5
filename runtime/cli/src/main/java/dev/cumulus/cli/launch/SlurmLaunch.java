package dev.cumulus.cli.launch;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A run inside a Slurm allocation, as {@link ClusterLauncher} sees it: the allocation's hosts and tasks, the
 * {@link Srun} that starts each host's agent and each node as a job step of the run's name, and the clean-up that
 * cancels any of those steps still there when the run has ended (a step whose srun was killed may outlive it).
 */
final class SlurmLaunch {
    private static final long SLURM_COMMAND_WAIT_S = 30;

    private final SlurmAllocation allocation;
    private final Srun srun;

    SlurmLaunch(SlurmAllocation allocation, String runId) {
        this.allocation = allocation;
        this.srun = Srun.forRun(runId);
    }

    SlurmAllocation allocation() {
        return allocation;
    }

    Srun srun() {
        return srun;
    }

    /**
     * Cancels the run's steps Slurm still lists ({@code squeue --steps}, by the run's step name); says what failed.
     * Called once the run's own srun processes have ended or been killed.
     */
    void cancelLeftSteps(PrintStream err) {
        List<String> steps = new ArrayList<>();
        String listed = runSlurm(List.of("squeue", "--noheader", "--steps", "--jobs=" + allocation.jobId(),
            "--format=%i %j"), err);
        if (listed == null) {
            return;
        }
        for (String line : listed.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 2 && f[1].equals(srun.jobName())) {
                steps.add(f[0]);
            }
        }
        if (steps.isEmpty()) {
            return;
        }
        List<String> cancel = new ArrayList<>(List.of("scancel", "--quiet"));
        cancel.addAll(steps);
        runSlurm(cancel, err);
    }

    /** Runs a Slurm command; its stdout, or null after saying on {@code err} why it failed. */
    private static String runSlurm(List<String> command, PrintStream err) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(SLURM_COMMAND_WAIT_S, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                err.println("cumulus: " + command.getFirst() + " did not answer within " + SLURM_COMMAND_WAIT_S
                    + "s; check for steps of this run left in the Slurm job (squeue --steps)");
                return null;
            }
            String text = new String(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                err.println("cumulus: " + String.join(" ", command) + " failed (exit " + p.exitValue() + "): "
                    + text.strip());
                return null;
            }
            return text;
        } catch (IOException e) {
            err.println("cumulus: cannot run " + command.getFirst() + " to clean up the run's job steps: "
                + e.getMessage());
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
