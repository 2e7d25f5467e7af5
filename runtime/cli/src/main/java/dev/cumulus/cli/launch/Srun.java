package dev.cumulus.cli.launch;

import java.util.ArrayList;
import java.util.List;

/**
 * How the launcher runs a command on a host of the Slurm allocation it is inside: a job step of one task on that
 * host ({@code srun --nodes=1 --ntasks=1 --nodelist=HOST}). The run's steps share the allocation's CPUs and memory
 * ({@code --overlap}: a host's agent and its nodes run side by side, each step with all of the job's CPUs on its host),
 * and carry the run's name ({@code cumulus-<runId>}) so what is left of them can be found and cancelled.
 * srun copies the step's output unchanged and at once ({@code --unbuffered}), forwards its stdin to the task (whose
 * end tells the task its launcher is gone), and exits with the task's exit code.
 *
 * @param jobName the steps' name, {@code cumulus-<runId>}
 */
record Srun(String jobName) implements HostReach {
    /** The steps' name for a run. */
    static Srun forRun(String runId) {
        return new Srun("cumulus-" + runId);
    }

    @Override
    public List<String> command(String host, List<String> command) {
        return command(host, command, null);
    }

    @Override
    public List<String> shellCommand(String host, String line) {
        return command(host, List.of("/bin/sh", "-c", line), null);
    }

    /** The srun command that runs {@code command} on {@code host} in directory {@code cwd} (null: srun's default). */
    List<String> command(String host, List<String> command, String cwd) {
        List<String> cmd = new ArrayList<>(List.of("srun", "--nodes=1", "--ntasks=1", "--nodelist=" + host,
            "--overlap", "--kill-on-bad-exit=0", "--mpi=none", "--unbuffered", "--quiet",
            "--job-name=" + jobName));
        if (cwd != null) {
            cmd.add("--chdir=" + cwd); // where it does not exist there, slurmstepd starts the task in /tmp
        }
        cmd.add("--");
        cmd.addAll(command);
        return cmd;
    }

    @Override
    public String explain(String host, int exitCode) {
        if (exitCode == 1) {
            return "srun could not start a job step on " + host + " (exit 1); check that the Slurm allocation is "
                + "still there (squeue -j $SLURM_JOB_ID) and that " + host + " is one of its nodes";
        }
        return null;
    }
}
