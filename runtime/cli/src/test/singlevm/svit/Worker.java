package svit;

/** A Thread subclass: the thread object itself is shared and runs on the node the program's start chose. */
public class Worker extends Thread {
    private final int me;
    private final int rounds;
    private final Slot slot;

    Worker(int me, int rounds, Slot slot) {
        super("worker-" + me);
        this.me = me;
        this.rounds = rounds;
        this.slot = slot;
    }

    @Override
    public void run() {
        Threads.work(me, rounds, slot);
    }
}
