package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.sched.Scheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;

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
}
