package dev.cumulus.cli.launch;

import java.util.List;
import java.util.Map;

/**
 * What srun tells one task of a step about the step ({@code srun cumulus node ...}): the job and step, this task's
 * rank and host, the step's hosts and their task counts. A task's rank is its node id, and srun's default (block)
 * distribution places ranks over the hosts in order, which is how every task can tell where its peers are without
 * asking them.
 *
 * @param jobId  {@code SLURM_JOB_ID}
 * @param stepId {@code SLURM_STEP_ID}
 * @param rank   {@code SLURM_PROCID}: this task's node id
 * @param hostOf for each rank, the index of its host in {@code hosts}
 * @param hosts  the step's hosts ({@code SLURM_STEP_NODELIST})
 */
record SlurmStep(String jobId, String stepId, int rank, int[] hostOf, List<String> hosts) {
    private static final String HOW = "srun [OPTIONS] cumulus node -cp CLASSPATH MAIN [ARGS]";

    /**
     * The step this process is a task of.
     *
     * @throws LaunchException when this is not a task of srun, or the step places its tasks other than in blocks
     */
    static SlurmStep fromEnvironment(Map<String, String> env) {
        String job = env.get(SlurmAllocation.JOB_ID);
        String rank = env.get("SLURM_PROCID");
        if (job == null || rank == null) {
            throw new LaunchException("cumulus node runs as a task of a Slurm job step, and this process is none "
                + "(SLURM_JOB_ID or SLURM_PROCID is not set): start it as '" + HOW + "' inside an allocation; "
                + "outside Slurm use 'cumulus run'");
        }
        String step = first(env, "SLURM_STEP_ID", "SLURM_STEPID");
        String nodeList = first(env, "SLURM_STEP_NODELIST", "SLURM_NODELIST");
        String tasksVar = env.containsKey("SLURM_STEP_TASKS_PER_NODE") ? "SLURM_STEP_TASKS_PER_NODE"
            : "SLURM_TASKS_PER_NODE";
        List<String> hosts = SlurmHostlist.expand("SLURM_STEP_NODELIST", nodeList);
        int[] tasks = SlurmHostlist.tasksPerNode(tasksVar, env.get(tasksVar), hosts.size());
        int size = 0;
        for (int t : tasks) {
            size += t;
        }
        int[] hostOf = new int[size];
        for (int h = 0, i = 0; h < tasks.length; h++) {
            for (int t = 0; t < tasks[h]; t++) {
                hostOf[i++] = h;
            }
        }
        int me = number(env, "SLURM_PROCID", size);
        String stepTasks = first(env, "SLURM_STEP_NUM_TASKS", "SLURM_NTASKS");
        if (stepTasks != null && !stepTasks.trim().equals(Integer.toString(size))) {
            throw new LaunchException("Slurm says the step has " + stepTasks.trim() + " tasks, but " + tasksVar + "="
                + env.get(tasksVar) + " places " + size);
        }
        String nodeId = env.get("SLURM_NODEID");
        if (nodeId != null && !nodeId.trim().equals(Integer.toString(hostOf[me]))) {
            throw new LaunchException("task " + me + " runs on the step's host " + nodeId.trim() + " ("
                + env.getOrDefault("SLURMD_NODENAME", "?") + "), but cumulus node expects it on host " + hostOf[me]
                + " (" + hosts.get(hostOf[me]) + "): it needs srun's default block distribution of tasks; leave "
                + "out --distribution/-m or give -m block");
        }
        return new SlurmStep(job.trim(), step == null ? "0" : step.trim(), me, hostOf, hosts);
    }

    /** The number of tasks, which is the number of nodes. */
    int size() {
        return hostOf.length;
    }

    /** A run id for the step, the same in every task: {@code slurm-<job>.<step>}. */
    String runId() {
        return "slurm-" + jobId + "." + stepId;
    }

    private static String first(Map<String, String> env, String a, String b) {
        String v = env.get(a);
        return v != null ? v : env.get(b);
    }

    private static int number(Map<String, String> env, String key, int below) {
        String v = env.get(key).trim();
        try {
            int n = Integer.parseInt(v);
            if (n >= 0 && n < below) {
                return n;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw new LaunchException("Slurm's " + key + "=" + v + " is not a task number of this step (0.."
            + (below - 1) + ")");
    }
}
