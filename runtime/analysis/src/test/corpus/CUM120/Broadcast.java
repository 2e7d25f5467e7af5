package corpus.cum120;

import dev.cumulus.Cloud;

/** Conforming: Manta's Figure 6, receive is a read and runs locally. */
public class Broadcast implements Cloud.Root {
    private final int[][] tab;

    public Broadcast(int n) {
        tab = new int[n][];
    }

    public synchronized int[] receive(int i) { // classify: read
        while (tab[i] == null) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
        return tab[i];
    }

    public synchronized void send(int i, int[] row) { // classify: write
        tab[i] = row;
        notifyAll();
    }
}
