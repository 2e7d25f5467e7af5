package litmus;

/** A cyclic barrier built from a monitor: every round's actors leave it together. */
final class Rendezvous {
    private final int parties;
    private int waiting;
    private long generation;

    Rendezvous(int parties) {
        this.parties = parties;
    }

    synchronized void await() throws InterruptedException {
        long g = generation;
        if (++waiting == parties) {
            waiting = 0;
            generation++;
            notifyAll();
            return;
        }
        while (generation == g) {
            wait();
        }
    }
}
