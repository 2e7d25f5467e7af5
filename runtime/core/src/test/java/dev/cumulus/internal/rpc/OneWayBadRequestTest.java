package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.RemoteRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Method;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A one-way call that reaches no method (no such object here) is a bad request: dropped and counted, never the node's
 * failure (which would fail-stop the cluster); a one-way call whose method throws still is.
 */
@Timeout(30)
class OneWayBadRequestTest {
    public interface Sink {
        void accept(String s);
    }

    @Test
    void aOneWayCallToAMissingObjectIsDroppedAndCountedAndTheNodeServesOn() throws Exception {
        List<String> failures = new CopyOnWriteArrayList<>();
        List<String> accepted = new CopyOnWriteArrayList<>();
        RpcEngine[] engines = new RpcEngine[2];
        ClassLoader loader = getClass().getClassLoader();
        engines[0] = new RpcEngine(0, 2, (to, buf, off, len) -> engines[1].onData(0, buf, off, len), loader, 0);
        engines[1] = new RpcEngine(1, 2, (to, buf, off, len) -> engines[0].onData(1, buf, off, len), loader, 0);
        for (RpcEngine e : engines) {
            e.scheduler(TestSchedulers.RUN_NOW);
        }
        engines[1].onOneWayFailure(failures::add);
        Sink sink = s -> {
            if (s.equals("throw")) {
                throw new IllegalStateException("sink refused");
            }
            accepted.add(s);
        };
        RemoteRef real = engines[1].export(sink, Sink.class, "sink");
        RemoteRef missing = new RemoteRef(1, real.objectId() + 1000, Sink.class.getName());
        Method accept = Sink.class.getMethod("accept", String.class);

        for (int i = 0; i < 3; i++) {
            engines[0].sendOneWay(missing, "missing", accept, new Object[] {"lost " + i});
        }
        engines[0].sendOneWay(real, "sink", accept, new Object[] {"kept"});
        awaitTrue(() -> accepted.contains("kept") && engines[1].droppedOneWayCalls() == 3); // calls to no object
                                                                                              // run on threads

        assertEquals(List.of(), failures, "a bad request is not the node's failure");
        engines[0].sendOneWay(real, "sink", accept, new Object[] {"throw"});
        awaitTrue(() -> !failures.isEmpty());
        assertTrue(failures.getFirst().contains("sink refused"), failures.getFirst());
        assertEquals(3, engines[1].droppedOneWayCalls(), "a method that throws is not a dropped request");
        engines[0].close();
        engines[1].close();
    }

    private static void awaitTrue(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 20 s");
            }
            Thread.onSpinWait();
        }
    }
}
