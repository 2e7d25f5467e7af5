package dev.cumulus.pastset;

import dev.cumulus.LocalCluster;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.pastset.PastSetRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static dev.cumulus.pastset.PastSetTestSupport.awaitCondition;
import static dev.cumulus.pastset.PastSetTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A node holding elements dies: callers elsewhere get an error that names the element. */
@Timeout(120)
class PastSetFailureTest {

    @Test
    void callersOfElementsOnAFailedNodeGetAnErrorNamingTheElement() {
        Map<Integer, Throwable> seen = new ConcurrentHashMap<>();
        AtomicReferenceArray<PastSetRuntime> runtimes = new AtomicReferenceArray<>(3);
        Template t = Template.of("doomed", int.class);
        RuntimeException thrown = assertThrows(RuntimeException.class, () -> LocalCluster.run(3, cluster -> {
            runtimes.set(cluster.nodeId(), runtime(cluster));
            PastSet space = cluster.pastSet(Placement.FIRST_TOUCH);
            if (cluster.nodeId() == 2) {
                assertTrue(space.enter(t).isLocal());
            }
            cluster.barrier();
            if (cluster.nodeId() == 2) {
                awaitCondition(() -> runtimes.get(2).waiting(Placement.FIRST_TOUCH, t) == 2);
                throw new IllegalStateException("node 2 dies on purpose");
            }
            Element doomed = space.enter(t);
            assertEquals(2, doomed.homeNode());
            try {
                doomed.observe();
            } catch (Throwable e) {
                seen.put(cluster.nodeId(), e);
                // a later call on the element fails at once, naming it too
                try {
                    doomed.move(1);
                } catch (Throwable again) {
                    seen.put(10 + cluster.nodeId(), again);
                }
                throw e;
            }
        }));
        // the root cause is reported (first, or among the suppressed failures it caused)
        boolean rootCauseReported = "node 2 dies on purpose".equals(thrown.getMessage())
            || Arrays.stream(thrown.getSuppressed()).anyMatch(s -> "node 2 dies on purpose".equals(s.getMessage()));
        assertTrue(rootCauseReported, String.valueOf(thrown));
        for (int key : new int[] {0, 1, 10, 11}) {
            Throwable e = seen.get(key);
            NodeFailedException nf = assertInstanceOf(NodeFailedException.class, e, String.valueOf(e));
            assertEquals(2, nf.nodeId());
            assertTrue(nf.getMessage().contains("doomed(int)"), nf.getMessage());
            assertTrue(nf.getMessage().contains("node 2"), nf.getMessage());
        }
    }

    @Test
    void blockedCallersOfElementsOnSurvivingNodesAreWokenWhenTheClusterFails() {
        Map<Integer, Throwable> seen = new ConcurrentHashMap<>();
        AtomicReferenceArray<PastSetRuntime> runtimes = new AtomicReferenceArray<>(3);
        Template t = Template.of("waiting-for-node-2", int.class);
        assertThrows(RuntimeException.class, () -> LocalCluster.run(3, cluster -> {
            runtimes.set(cluster.nodeId(), runtime(cluster));
            Element e = cluster.pastSet(Placement.CENTRAL).enter(t);
            cluster.barrier();
            if (cluster.nodeId() == 2) {
                awaitCondition(() -> runtimes.get(0).waiting(Placement.CENTRAL, t) == 2);
                throw new IllegalStateException("node 2 dies before moving");
            }
            try {
                e.observe(); // node 0 locally, node 1 remotely: both wait for node 2's move
            } catch (Throwable failure) {
                seen.put(cluster.nodeId(), failure);
                if (cluster.nodeId() == 0) {
                    // the home stays up until node 1 has its answer (a node whose body throws is declared failed)
                    awaitCondition(() -> seen.containsKey(1));
                }
                throw failure;
            }
        }));
        for (int node : new int[] {0, 1}) {
            Throwable e = seen.get(node);
            NodeFailedException nf = assertInstanceOf(NodeFailedException.class, e, String.valueOf(e));
            assertEquals(2, nf.nodeId(), nf.getMessage());
            assertTrue(nf.getMessage().contains("waiting-for-node-2(int)") && nf.getMessage().contains("node 2"),
                nf.getMessage());
        }
    }

    /**
     * The home dies while a node's moveAsyncs wait there, held by flow control: each of their futures fails with the
     * home's failure, and so does the node's next operation on the element.
     */
    @Test
    void asynchronousMovesHeldAtAHomeThatFailsFailOnTheirFuturesAndAtTheNextOperation() {
        Map<Integer, Throwable> seen = new ConcurrentHashMap<>();
        AtomicReferenceArray<PastSetRuntime> runtimes = new AtomicReferenceArray<>(3);
        AtomicBoolean firstTwoAnswered = new AtomicBoolean();
        Template t = Template.of("held-by-a-doomed-home", int.class);
        RuntimeException run = assertThrows(RuntimeException.class, () -> LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            runtimes.set(me, runtime(cluster));
            PastSet space = cluster.pastSet(Placement.FIRST_TOUCH);
            if (me == 2) {
                Element mine = space.enter(t);
                assertTrue(mine.isLocal());
                mine.delta(2);
            }
            cluster.barrier();
            if (me == 2) {
                // 2 in (their answers received), 8 held
                awaitCondition(() -> runtimes.get(2).waiting(Placement.FIRST_TOUCH, t) == 8 && firstTwoAnswered.get());
                throw new IllegalStateException("node 2 dies with moves held");
            }
            if (me == 1) {
                Element e = space.enter(t);
                List<CompletableFuture<Long>> sent = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    sent.add(e.moveAsync(i));
                }
                for (int i = 0; i < 2; i++) {
                    assertEquals(i, sent.get(i).join());
                }
                firstTwoAnswered.set(true);
                for (int i = 2; i < 10; i++) {
                    seen.put(i, assertThrows(CompletionException.class, sent.get(i)::join).getCause());
                }
                seen.put(100, assertThrows(RuntimeException.class, () -> e.move(99)));
            }
        }));
        for (int key = 2; key < 10; key++) {
            NodeFailedException nf = assertInstanceOf(NodeFailedException.class, seen.get(key),
                "move " + key + ": " + seen.get(key) + "; the run: " + run + " " + Arrays.toString(run.getSuppressed()));
            assertEquals(2, nf.nodeId(), nf.getMessage());
        }
        NodeFailedException next = assertInstanceOf(NodeFailedException.class, seen.get(100),
            String.valueOf(seen.get(100)));
        assertEquals(2, next.nodeId());
        assertTrue(next.getMessage().contains("held-by-a-doomed-home(int)"), next.getMessage());
    }
}
