package corpus.classify;

import dev.cumulus.Cloud;

/** Manta Figure 3: both put and get change 'filled' and call notifyAll, so both are writes. */
public class Bin implements Cloud.Root {
    private boolean filled = false;
    private int value;

    public synchronized int get() throws InterruptedException { // classify: write
        while (!filled) { // expect: CUM120
            wait();
        }
        filled = false;
        notifyAll();
        return value;
    }

    public synchronized void put(int i) throws InterruptedException { // classify: write
        while (filled) {
            wait();
        }
        value = i;
        filled = true;
        notifyAll();
    }

    public synchronized void ring() { // classify: write
        notify();
    }
}
