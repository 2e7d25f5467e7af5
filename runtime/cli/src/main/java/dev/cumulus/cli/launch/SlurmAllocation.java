package dev.cumulus.cli.launch;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Slurm allocation {@code cumulus run} is inside ({@code salloc}, {@code sbatch}: {@code SLURM_JOB_ID} is set):
 * its hosts and how many tasks each may run, from {@code SLURM_JOB_NODELIST} and {@code SLURM_TASKS_PER_NODE}. The
 * launcher places its nodes over them in order, as over a hosts file's slots, and starts every node and each host's
 * agent as a job step of its own ({@link Srun}).
 *
 * @param jobId the job's id
 * @param hosts the allocation's hosts with their task counts as slots
 */
record SlurmAllocation(String jobId, HostsFile hosts) {
    static final String JOB_ID = "SLURM_JOB_ID";
    static final String NODE_LIST = "SLURM_JOB_NODELIST";
    static final String TASKS_PER_NODE = "SLURM_TASKS_PER_NODE";

    /**
     * The allocation this process is inside, or empty when {@code SLURM_JOB_ID} is not set.
     *
     * @throws LaunchException when the job's node or task list is missing or unreadable
     */
    static Optional<SlurmAllocation> fromEnvironment(Map<String, String> env) {
        String job = env.get(JOB_ID);
        if (job == null || job.isBlank()) {
            return Optional.empty();
        }
        String nodeList = env.get(NODE_LIST);
        if (nodeList == null) {
            nodeList = env.get("SLURM_NODELIST"); // older Slurm
        }
        List<String> names = SlurmHostlist.expand(NODE_LIST, nodeList);
        int[] tasks = SlurmHostlist.tasksPerNode(TASKS_PER_NODE, env.get(TASKS_PER_NODE), names.size());
        List<HostsFile.Host> hosts = new ArrayList<>();
        for (int i = 0; i < names.size(); i++) {
            hosts.add(new HostsFile.Host(names.get(i), tasks[i], i + 1));
        }
        return Optional.of(new SlurmAllocation(job.trim(), new HostsFile(Path.of(NODE_LIST), hosts)));
    }

    /** The allocation's task count: how many nodes a run starts unless {@code --nodes} says otherwise. */
    int tasks() {
        return hosts.slots();
    }

    /**
     * Places {@code nodes} nodes over the hosts in order, a host's tasks taking nodes 0.. first.
     *
     * @return for each node id, the index of its host
     * @throws LaunchException when the allocation has fewer tasks than nodes
     */
    int[] place(int nodes) {
        if (nodes > tasks()) {
            throw new LaunchException("--nodes " + nodes + " is more than the " + tasks() + " tasks of Slurm job "
                + jobId + " (" + describe() + "); ask salloc/sbatch for more (--ntasks, --ntasks-per-node) or leave "
                + "--nodes out to start one node per task");
        }
        return hosts.place(nodes);
    }

    /** {@code host1: 2 tasks, host2: 1 task}. */
    String describe() {
        List<String> l = new ArrayList<>();
        for (HostsFile.Host h : hosts.hosts()) {
            l.add(h.name() + ": " + h.slots() + (h.slots() == 1 ? " task" : " tasks"));
        }
        return String.join(", ", l);
    }
}
