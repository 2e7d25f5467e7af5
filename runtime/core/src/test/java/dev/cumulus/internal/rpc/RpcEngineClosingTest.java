package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.sched.Scheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node that leaves closes its RPC engine before its duty cycle: a call that arrives (or is handed on from the main
 * thread's batch) in between is dropped quietly — its caller learns that the node left — instead of surfacing as an
 * error on the polling thread, which would fail the cluster during a normal shutdown.
 */
@Timeout(30)
class RpcEngineClosingTest {
    public interface Sink {
        void take(String s);
    }

    @Test
    void aCallThatArrivesAfterTheEngineClosedIsDroppedNotReportedAsAnError() throws Exception {
        List<String> taken = new CopyOnWriteArrayList<>();
        RpcEngine[] engines = new RpcEngine[2];
        ClassLoader loader = getClass().getClassLoader();
        engines[0] = new RpcEngine(0, 2, (to, buf, off, len) -> engines[1].onData(0, buf, off, len), loader, 0);
        engines[1] = new RpcEngine(1, 2, (to, buf, off, len) -> engines[0].onData(1, buf, off, len), loader, 0);
        for (RpcEngine e : engines) {
            e.scheduler(Scheduler.NONE); // every call goes to a call thread
        }
        RemoteRef ref = engines[1].export((Sink) taken::add, Sink.class, "sink");
        engines[1].close();
        assertDoesNotThrow(() -> engines[0].sendOneWay(ref, "sink", Sink.class.getMethod("take", String.class),
            new Object[] {"late"}), "a call to a closed engine surfaced as an error where it was polled");
        assertEquals(List.of(), taken);
        engines[0].close();
    }

    @Test
    void aCallStillWaitingWhenItsOwnEngineClosesFailsInsteadOfWaitingForGood() throws Exception {
        ClassLoader loader = getClass().getClassLoader();
        // node 1 never answers: its messages go nowhere
        RpcEngine caller = new RpcEngine(0, 2, (to, buf, off, len) -> { }, loader, 0);
        caller.scheduler(Scheduler.NONE);
        RemoteRef ref = new RemoteRef(1, 16, Sink.class.getName());
        Sink sink = caller.proxy(ref, Sink.class, "sink");
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                sink.take("x");
                outcome.complete(null);
            } catch (Throwable e) {
                outcome.complete(e);
            }
        });
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (t.getState() != Thread.State.WAITING && System.nanoTime() < deadline) {
            Thread.onSpinWait(); // until the call waits for its reply
        }
        caller.close();
        Throwable e = outcome.get(10, TimeUnit.SECONDS);
        assertTrue(e instanceof CumulusException && e.getMessage().contains("left the cluster"),
            "the call ended with " + e);
    }
}
