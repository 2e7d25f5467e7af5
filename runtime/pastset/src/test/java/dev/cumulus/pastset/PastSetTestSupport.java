package dev.cumulus.pastset;

import dev.cumulus.Cluster;
import dev.cumulus.internal.cluster.NodeCluster;
import dev.cumulus.internal.pastset.PastSetRuntime;

import java.util.function.BooleanSupplier;

/** Shared helpers: the node's PastSet runtime, and waiting on a condition (no sleeps; the test's timeout bounds it). */
final class PastSetTestSupport {
    private PastSetTestSupport() {
    }

    static PastSetRuntime runtime(Cluster cluster) {
        return ((NodeCluster) cluster).capability(PastSetRuntime.class);
    }

    static void awaitCondition(BooleanSupplier condition) {
        while (!condition.getAsBoolean()) {
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
