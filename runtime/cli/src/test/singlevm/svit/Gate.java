package svit;

/** Holds its callers until {@code parties} of them arrived: each of a pool's workers takes one gate task. */
public class Gate {
    private final int parties;
    private int arrived;

    public Gate(int parties) {
        this.parties = parties;
    }

    public synchronized void arrive() throws InterruptedException {
        arrived++;
        notifyAll();
        while (arrived < parties) {
            wait();
        }
    }
}
