package svit;

/** A one-place buffer handed over with wait and notifyAll. */
public class Slot {
    private long value;
    private boolean full;

    public synchronized void put(long v) throws InterruptedException {
        while (full) {
            wait();
        }
        value = v;
        full = true;
        notifyAll();
    }

    public synchronized long take() throws InterruptedException {
        while (!full) {
            wait();
        }
        full = false;
        notifyAll();
        return value;
    }
}
