package dev.cumulus.examples.pastset;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(180)
class PastSetExamplesTest {
    @Test
    void pingPongRunsAllThreeScenariosWithIntactTokens() {
        AtomicReference<List<PingPong.Result>> results = new AtomicReference<>();
        LocalCluster.run(3, cluster -> {
            List<PingPong.Result> r = PingPong.run(cluster, 200);
            if (cluster.nodeId() == 0) {
                results.set(r);
            }
        });
        List<PingPong.Result> r = results.get();
        assertEquals(3 * PingPong.SIZES.length, r.size(), String.valueOf(r));
        for (PingPong.Result one : r) {
            assertTrue(one.intact(), String.valueOf(one));
            assertTrue(one.roundTripUs() > 0, String.valueOf(one));
            System.out.printf("ping-pong %-10s %6d B: %.1f us%n", one.scenario(), one.bytes(), one.roundTripUs());
        }
        assertEquals(List.of("local", "one-remote", "all-remote"),
            r.stream().map(PingPong.Result::scenario).distinct().toList());
    }

    @Test
    void ringPassesTheTokenAroundThreeNodes() {
        AtomicReference<List<Ring.Result>> results = new AtomicReference<>();
        LocalCluster.run(3, cluster -> {
            List<Ring.Result> r = Ring.run(cluster, 100);
            if (cluster.nodeId() == 0) {
                results.set(r);
            }
        });
        assertEquals(PingPong.SIZES.length, results.get().size());
        for (Ring.Result r : results.get()) {
            assertEquals(3, r.nodes());
            assertEquals(r.laps(), r.intactLaps(), String.valueOf(r));
            System.out.printf("ring of 3, %6d B: %.1f us per hop%n", r.bytes(), r.hopUs());
        }
    }

    @Test
    void nBodyWithAllGatherMatchesTheSequentialSimulation() {
        AtomicReference<NBody.Result> result = new AtomicReference<>();
        LocalCluster.run(3, cluster -> {
            NBody.Result r = NBody.run(cluster, 97, 10, 7);
            if (r != null) {
                result.set(r);
            }
        });
        NBody.Result r = result.get();
        assertEquals(3, r.workers());
        assertTrue(r.verified(), String.valueOf(r));
    }

    @Test
    void nBodyOnOneNode() {
        AtomicReference<NBody.Result> result = new AtomicReference<>();
        LocalCluster.run(1, cluster -> result.set(NBody.run(cluster, 20, 5, 1)));
        assertTrue(result.get().verified(), String.valueOf(result.get()));
    }
}
