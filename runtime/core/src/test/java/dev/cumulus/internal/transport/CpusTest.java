package dev.cumulus.internal.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The calling thread's CPU, moving a thread off its CPU without narrowing where it may run, and its scheduling policy. */
@Timeout(30)
class CpusTest {
    @Test
    void theCurrentCpuIsOneOfThisMachines() {
        assertTrue(Cpus.available(), "sched_getcpu is available on Linux");
        int cpu = Cpus.current();
        assertTrue(cpu >= 0 && cpu < Runtime.getRuntime().availableProcessors() * 64, "cpu " + cpu);
    }

    @Test
    void aThreadThatLeavesItsCpuRunsElsewhereAndMayStillRunAnywhere() throws Exception {
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "needs two CPUs");
        CompletableFuture<int[]> result = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().start(() -> {
            int before = Cpus.current();
            int[] away = {-1, -1};
            // the CPU it runs on while bound away (the kernel moves it before sched_setaffinity returns); once its
            // allowed CPUs are back the scheduler may take it anywhere, so that is not looked at
            boolean moved = Cpus.leave(before, () -> away[0] = Cpus.current());
            // it may run on every CPU again: leaving the CPU it was moved to must succeed and move it again
            boolean again = Cpus.leave(away[0], () -> away[1] = Cpus.current());
            result.complete(new int[] {before, moved ? 1 : 0, away[0], again ? 1 : 0, away[1]});
        });
        int[] r = result.get(20, TimeUnit.SECONDS);
        t.join(10_000);
        assertEquals(1, r[1], "leave() reported no move");
        assertNotEquals(r[0], r[2], "still on CPU " + r[0] + " while bound away from it");
        assertEquals(1, r[3], "could not leave the second CPU: the thread's allowed CPUs were narrowed");
        assertNotEquals(r[2], r[4], "still on CPU " + r[2] + " while bound away from it");
    }

    @Test
    void leavingAnUnknownCpuDoesNothing() {
        assertFalse(Cpus.leave(-1));
    }

    @Test
    void aThreadCanPutItselfUnderTheBatchPolicyAndOthersKeepTheirs() throws Exception {
        CompletableFuture<String> policies = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                String before = policyOfThisThread();
                boolean set = Cpus.batchPolicy();
                policies.complete(before + " " + set + " " + policyOfThisThread());
            } catch (Exception e) {
                policies.completeExceptionally(e);
            }
        });
        t.join(10_000);
        assertEquals("0 true 3", policies.get(), "SCHED_OTHER (0) before, SCHED_BATCH (3) after");
        assertEquals("0", policyOfThisThread(), "only the calling thread changes");
    }

    /** Field 41 of /proc/thread-self/stat: the scheduling policy (after the parenthesised command name). */
    private static String policyOfThisThread() throws java.io.IOException {
        String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return fields[41 - 3];
    }
}
