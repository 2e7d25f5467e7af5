package dev.cumulus.array;

/**
 * Which part of a shared array this node, and each of its threads, works on (DSA Figure 3's
 * {@code startingIndexAtThread}/{@code maxIndexAtThread}). The first index (rows; for a 1-row array, its elements)
 * is split over {@code nodes * threadsPerNode} threads, node by node; the split follows partition boundaries when
 * there are at least as many partitions along that index as threads. Thread {@code t} of this node covers
 * {@code [startingIndexAtThread(t), maxIndexAtThread(t))}. The constructor throws
 * {@link IllegalArgumentException} if a count is below 1, the extent below 0, or {@code node} is not one of the nodes.
 *
 * @param node           this node
 * @param nodes          nodes in the cluster
 * @param threadsPerNode worker threads on every node
 * @param extent         number of indices split (rows, or elements of a 1-row array)
 * @param block          partition size along that index
 */
public record ArrayLayout(int node, int nodes, int threadsPerNode, int extent, int block) {
    public ArrayLayout {
        if (nodes < 1 || node < 0 || node >= nodes || threadsPerNode < 1 || extent < 0 || block < 1) {
            throw new IllegalArgumentException("invalid layout: node " + node + " of " + nodes + ", "
                + threadsPerNode + " threads per node, extent " + extent + ", block " + block + "; nodes, threads "
                + "per node and block must be at least 1, the node 0 to nodes - 1, the extent 0 or more");
        }
    }

    /**
     * First index of local thread {@code thread}.
     *
     * @throws IndexOutOfBoundsException if {@code thread} is not 0 to {@code threadsPerNode - 1}
     */
    public int startingIndexAtThread(int thread) {
        return boundary(global(thread));
    }

    /**
     * One past the last index of local thread {@code thread}.
     *
     * @throws IndexOutOfBoundsException if {@code thread} is not 0 to {@code threadsPerNode - 1}
     */
    public int maxIndexAtThread(int thread) {
        return boundary(global(thread) + 1);
    }

    /** First index of this node's share. */
    public int nodeStart() {
        return boundary(node * threadsPerNode);
    }

    /** One past the last index of this node's share. */
    public int nodeEnd() {
        return boundary((node + 1) * threadsPerNode);
    }

    private int global(int thread) {
        if (thread < 0 || thread >= threadsPerNode) {
            throw new IndexOutOfBoundsException("thread " + thread + " out of bounds for " + threadsPerNode
                + " threads per node (valid 0.." + (threadsPerNode - 1) + ")");
        }
        return node * threadsPerNode + thread;
    }

    private int boundary(int t) {
        long total = (long) nodes * threadsPerNode;
        int units = extent / block;
        if (units >= total && extent % block == 0) {
            return (int) (t * (long) units / total) * block;
        }
        return (int) (t * (long) extent / total);
    }
}
