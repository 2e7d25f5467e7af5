package dev.cumulus.examples.asp;

import dev.cumulus.Cloud;

/**
 * Manta Figure 6: the replicated broadcast object. {@code send} is a write (broadcast to every replica, wakes the
 * waiting readers); {@code receive} is a read: it runs on the local replica and waits until row {@code i} is there.
 */
public class Broadcast implements Cloud.Root {
    private final int[][] tab;

    public Broadcast(int n) {
        tab = new int[n][];
    }

    public synchronized int[] receive(int i) throws InterruptedException {
        while (tab[i] == null) {
            wait();
        }
        return tab[i];
    }

    public synchronized void send(int i, int[] row) {
        tab[i] = row;
        notifyAll();
    }
}
