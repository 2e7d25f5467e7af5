package svit;

/**
 * Two threads, one on each node of a two-node run, hand a counter back and forth through a {@link Slot} until the run
 * is stopped: the program of the test that kills a node mid-run. Each prints one line once it has handed a value on.
 */
public class Endless {
    static final class Passer extends Thread {
        private final Slot in;
        private final Slot out;

        Passer(String name, Slot in, Slot out) {
            super(name);
            this.in = in;
            this.out = out;
        }

        @Override
        public void run() {
            try {
                boolean told = false;
                while (true) {
                    long v = in.take();
                    out.put(v + 1);
                    if (!told) {
                        System.out.println(getName() + " passes");
                        told = true;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Slot ping = new Slot();
        Slot pong = new Slot();
        Thread remote = new Passer("passer-1", ping, pong); // node 1
        Thread local = new Passer("passer-0", pong, ping); // node 0
        remote.start();
        local.start();
        ping.put(0);
        System.out.println("started both passers");
        remote.join();
        local.join();
    }
}
