package dev.cumulus.cli.launch;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Slurm's host and task lists, an allocation as {@code cumulus run} reads it, and a step as {@code cumulus node} does. */
class SlurmEnvironmentTest {
    @Test
    void hostListsExpandLikeScontrolShowHostnames() {
        assertEquals(List.of("node1"), SlurmHostlist.expand("V", "node1"));
        assertEquals(List.of("n08", "n09", "n10", "n12", "gpu1"), SlurmHostlist.expand("V", "n[08-10,12],gpu1"));
        assertEquals(List.of("r1-a1", "r1-a2", "r2-a1", "r2-a2"), SlurmHostlist.expand("V", "r[1-2]-a[1-2]"));
        assertEquals(List.of("a", "b9", "b10", "x.y"), SlurmHostlist.expand("V", "a,b[9-10],x.y"));
    }

    @Test
    void badHostListsAreNamedWithTheirVariable() {
        for (String bad : List.of("", "n[1-", "n]1[", "n[3-1]", "n[a-b]", "n[[1]]", "a,,b", "n[1-2-3]")) {
            LaunchException e = assertThrows(LaunchException.class, () -> SlurmHostlist.expand("SLURM_X", bad), bad);
            assertTrue(e.getMessage().startsWith("Slurm's SLURM_X=" + bad + " cannot be read: "), e.getMessage());
        }
    }

    @Test
    void taskListsRepeatCounts() {
        assertArrayEquals(new int[] {2, 2, 2, 1}, SlurmHostlist.tasksPerNode("V", "2(x3),1", 4));
        assertArrayEquals(new int[] {4}, SlurmHostlist.tasksPerNode("V", "4", 1));
        assertThrows(LaunchException.class, () -> SlurmHostlist.tasksPerNode("V", "2(x3)", 2));
        assertThrows(LaunchException.class, () -> SlurmHostlist.tasksPerNode("V", "2,1", 3));
        assertThrows(LaunchException.class, () -> SlurmHostlist.tasksPerNode("V", "0", 1));
        assertThrows(LaunchException.class, () -> SlurmHostlist.tasksPerNode("V", "2(3)", 3));
        assertThrows(LaunchException.class, () -> SlurmHostlist.tasksPerNode("V", "2(x99999999999)", 3));
    }

    @Test
    void anAllocationGivesItsHostsWithTheirTasksAsSlots() {
        assertEquals(Optional.empty(), SlurmAllocation.fromEnvironment(Map.of("HOME", "/root")));
        SlurmAllocation a = SlurmAllocation.fromEnvironment(Map.of("SLURM_JOB_ID", "17",
            "SLURM_JOB_NODELIST", "c[1-2]", "SLURM_TASKS_PER_NODE", "2,1")).orElseThrow();
        assertEquals("17", a.jobId());
        assertEquals(3, a.tasks());
        assertEquals(List.of("c1", "c2"), a.hosts().hosts().stream().map(HostsFile.Host::name).toList());
        assertArrayEquals(new int[] {0, 0, 1}, a.place(3));
        assertArrayEquals(new int[] {0, 0}, a.place(2));
        LaunchException e = assertThrows(LaunchException.class, () -> a.place(4));
        assertEquals("--nodes 4 is more than the 3 tasks of Slurm job 17 (c1: 2 tasks, c2: 1 task); ask "
            + "salloc/sbatch for more (--ntasks, --ntasks-per-node) or leave --nodes out to start one node per task",
            e.getMessage());
    }

    @Test
    void insideAnAllocationTheRunIsOverHostsUnlessAHostsFileIsGiven() {
        Map<String, String> env = Map.of("SLURM_JOB_ID", "17", "SLURM_JOB_NODELIST", "c1",
            "SLURM_TASKS_PER_NODE", "2");
        LaunchContext ctx = new LaunchContext().environment(env).mainClass("M");
        assertEquals("17", ctx.slurmJob());
        assertEquals(dev.cumulus.internal.launch.LaunchConfig.TransportMode.HOSTS, ctx.transport());
        ctx.validate(); // no --nodes: the allocation's tasks
        LaunchException ipc = assertThrows(LaunchException.class,
            () -> new LaunchContext().environment(env).mainClass("M")
                .transport(dev.cumulus.internal.launch.LaunchConfig.TransportMode.IPC).validate());
        assertTrue(ipc.getMessage().contains("inside a Slurm allocation"), ipc.getMessage());
        assertEquals(null, new LaunchContext().environment(env).hostsFile(java.nio.file.Path.of("h")).slurmJob());
    }

    @Test
    void aStepTellsEachTaskItsRankAndWhereThePeersAre() {
        Map<String, String> env = step("1", "0");
        SlurmStep s = SlurmStep.fromEnvironment(env);
        assertEquals("slurm-17.3", s.runId());
        assertEquals(3, s.size());
        assertEquals(1, s.rank());
        assertArrayEquals(new int[] {0, 0, 1}, s.hostOf());
        assertEquals(List.of("c1", "c2"), s.hosts());
    }

    @Test
    void aStepWhoseTasksAreNotInBlocksIsRefused() {
        LaunchException e = assertThrows(LaunchException.class, () -> SlurmStep.fromEnvironment(step("1", "1")));
        assertTrue(e.getMessage().contains("block distribution"), e.getMessage());
    }

    @Test
    void outsideAStepCumulusNodeSaysHowToStartIt() {
        LaunchException e = assertThrows(LaunchException.class, () -> SlurmStep.fromEnvironment(Map.of()));
        assertTrue(e.getMessage().contains("srun [OPTIONS] cumulus node -cp CLASSPATH MAIN"), e.getMessage());
    }

    @Test
    void cumulusNodeTakesTheRunsSecretFromTheEnvironmentOrSaysHowToSetIt() {
        dev.cumulus.internal.auth.RunSecret secret = dev.cumulus.internal.auth.RunSecret.generate();
        String base64 = secret.line().substring(dev.cumulus.internal.auth.RunSecret.LINE_PREFIX.length());
        assertEquals(secret, SlurmNode.secretOf(Map.of(SlurmNode.SECRET_VARIABLE, base64 + "\n")));
        LaunchException missing = assertThrows(LaunchException.class, () -> SlurmNode.secretOf(Map.of()));
        assertTrue(missing.getMessage().contains("export CUMULUS_SECRET=$(head -c 32 /dev/urandom | base64)"),
            missing.getMessage());
        LaunchException bad = assertThrows(LaunchException.class,
            () -> SlurmNode.secretOf(Map.of(SlurmNode.SECRET_VARIABLE, "c2hvcnQ=")));
        assertTrue(bad.getMessage().contains("not 32 bytes in base64"), bad.getMessage());
        assertFalse(bad.getMessage().contains("c2hvcnQ="), bad.getMessage());
    }

    @Test
    void scontrolsNodeAddressesAreRead() {
        Map<String, String> m = SlurmNodeAddresses.parse("NodeName=c1 Arch=x86_64 CoresPerSocket=1 NodeAddr=10.0.0.5 "
            + "NodeHostName=c1 Version=22.05\nNodeName=c2 NodeAddr=c2-ib NodeHostName=c2\n\n");
        assertEquals(Map.of("c1", "10.0.0.5", "c2", "c2-ib"), m);
    }

    private static Map<String, String> step(String rank, String nodeId) {
        Map<String, String> env = new HashMap<>();
        env.put("SLURM_JOB_ID", "17");
        env.put("SLURM_STEP_ID", "3");
        env.put("SLURM_PROCID", rank);
        env.put("SLURM_NODEID", nodeId);
        env.put("SLURM_STEP_NODELIST", "c[1-2]");
        env.put("SLURM_STEP_TASKS_PER_NODE", "2,1");
        env.put("SLURM_STEP_NUM_TASKS", "3");
        return env;
    }
}
