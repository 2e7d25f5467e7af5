package corpus.cum120;

import dev.cumulus.Cloud;

/** Violating (warning): Manta §4.6's receive that counts its calls is a write, so every receive is broadcast. */
public class CountingBroadcast implements Cloud.Root {
    private final int[][] tab = new int[8][];
    private int receives = 0;

    public synchronized int[] receive(int i) throws InterruptedException { // classify: write
        receives++; // expect: CUM120
        while (tab[i] == null) {
            wait();
        }
        return tab[i];
    }

    public synchronized void send(int i, int[] row) { // classify: write
        tab[i] = row;
        notifyAll();
    }

    public boolean hasRow(int i) { return tab[i] != null && record(); } // expect: CUM120; classify: write

    private boolean record() { receives++; return true; } // classify: write
}
