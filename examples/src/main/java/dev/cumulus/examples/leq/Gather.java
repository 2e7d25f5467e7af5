package dev.cumulus.examples.leq;

import dev.cumulus.Cloud;

/**
 * Manta §4.5's replicated gather/reduce object. {@code put} is a write (one broadcast per node and round);
 * {@code reduce} and {@code vector} are reads: {@code reduce} waits on the local replica until every node's part of
 * the round has arrived, then both run without communication. Rounds alternate between two slots: a node can be at
 * most one round ahead of another.
 */
public class Gather implements Cloud.Root {
    private final int nodes;
    private final double[][] x;
    private final double[] max = new double[2];
    private final int[] arrived = new int[2];
    private final int[] round = {-1, -1};

    public Gather(int n, int nodes) {
        this.nodes = nodes;
        this.x = new double[2][n];
    }

    public synchronized void put(int r, int first, double[] part, double change) {
        int s = r & 1;
        if (round[s] != r) {
            round[s] = r;
            arrived[s] = 0;
            max[s] = 0;
        }
        System.arraycopy(part, 0, x[s], first, part.length);
        max[s] = Math.max(max[s], change);
        if (++arrived[s] == nodes) {
            notifyAll();
        }
    }

    public synchronized double reduce(int r) throws InterruptedException {
        int s = r & 1;
        while (round[s] != r || arrived[s] < nodes) {
            wait();
        }
        return max[s];
    }

    public synchronized double[] vector(int r) {
        return x[r & 1].clone();
    }
}
