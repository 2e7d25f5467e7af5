package dev.cumulus.internal.singlevm;

import dev.cumulus.Cluster;
import dev.cumulus.LocalCluster;
import dev.cumulus.internal.cluster.NodeCluster;

import java.util.function.LongSupplier;

/** Test support: a node's shared heap, and object ids handed from the node that made them to every node. */
final class Heaps {
    /** The statics object of this test class on node 0 holds the ids being handed out. */
    private static final String DIRECTORY = "dev.cumulus.internal.singlevm.Heaps";
    private static final int DIRECTORY_SLOTS = 16;

    private Heaps() {
    }

    static SharedHeap of(Cluster cluster) {
        return ((NodeCluster) cluster).capability(SharedHeap.class);
    }

    /**
     * Collective: node {@code maker} makes an object with {@code make} and every node returns its id (handed out
     * through a volatile slot of a statics object on node 0 and the cluster's barrier).
     */
    static long share(Cluster cluster, int slot, int maker, LongSupplier make) {
        SharedHeap heap = of(cluster);
        long directory = heap.statics(DIRECTORY, DIRECTORY_SLOTS);
        if (cluster.nodeId() == maker) {
            heap.putVolatile(directory, slot, make.getAsLong());
        }
        cluster.barrier();
        return heap.getVolatile(directory, slot);
    }

    /** What each node of {@link #onTwoNodes} runs, with its bound object space. */
    interface NodeBody {
        void run(ObjectSpace space, Cluster cluster);
    }

    /**
     * Runs {@code body} on both nodes of an in-process 2-node cluster, each with an object space bound to the thread
     * (the program's classes from this test's loader), then meets the other node at a barrier and closes the space.
     */
    static void onTwoNodes(NodeBody body) {
        LocalCluster.run(2, cluster -> {
            ObjectSpace space = new ObjectSpace(of(cluster), Heaps.class.getClassLoader());
            space.bind();
            try {
                body.run(space, cluster);
                cluster.barrier();
            } finally {
                space.close();
            }
        });
    }
}
