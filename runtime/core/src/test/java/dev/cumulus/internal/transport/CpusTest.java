package dev.cumulus.internal.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A thread's scheduling policy. */
@Timeout(30)
class CpusTest {
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
