package conform;

/**
 * Static initializers that write into objects other threads made: a class's initializer runs on node 0, whichever
 * node first uses the class, and what it writes into an object homed on the node that uses it (a number, a new object
 * of the class being initialised, a new array) must be there when that use goes on (JLS 12.4.2: the initialisation
 * happens before the use). Two threads (on two other nodes with 3) first use the class at the same moment; each made
 * its box itself and handed it over only through a volatile field, so each box stays homed with its thread.
 */
final class InitWrites implements Conform.Case {
    static final class Box {
        int value;
        Object ref;
        int[] cells;
    }

    static final Box[] boxes = new Box[2];
    static volatile Box handed0;
    static volatile Box handed1;
    static final Object gate = new Object();
    static int arrived;

    /** Its initializer fills both boxes, with objects of its own class among what it puts there. */
    static final class Kappa {
        static final int FILLED;
        final int made;

        Kappa(int made) {
            this.made = made;
        }

        static {
            int filled = 0;
            Box[] both = {handed0, handed1};
            for (int k = 0; k < both.length; k++) {
                if (both[k] != null) {
                    both[k].value = 42 + k;
                    both[k].ref = new Kappa(k);
                    both[k].cells = new int[] {k, 7, k * k};
                    filled++;
                }
            }
            FILLED = filled;
        }
    }

    /** Its initializer writes one box only, with nothing that needs a new object there. */
    static final class Lambda {
        static final int K;

        static {
            handed0.value += 1000;
            K = 5;
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        String[] seen = new String[2];
        Thread[] threads = new Thread[2];
        for (int i = 0; i < threads.length; i++) {
            int me = i;
            threads[i] = new Thread(() -> {
                Box mine = new Box();
                if (me == 0) {
                    handed0 = mine;
                } else {
                    handed1 = mine;
                }
                synchronized (gate) {
                    arrived++;
                    gate.notifyAll();
                    while (arrived < 2) {
                        try {
                            gate.wait();
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                    }
                }
                int filled = Kappa.FILLED;
                String line = "box " + me + " filled " + filled + " value " + mine.value + " ref "
                    + (mine.ref instanceof Kappa k ? "kappa " + k.made : String.valueOf(mine.ref)) + " cells "
                    + java.util.Arrays.toString(mine.cells);
                if (me == 0) {
                    line += " then " + Lambda.K + " value " + mine.value;
                }
                seen[me] = line;
            });
        }
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
        out.println(seen[0]);
        out.println(seen[1]);
    }
}
