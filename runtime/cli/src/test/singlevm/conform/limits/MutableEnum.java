package conform.limits;

/**
 * An enum constant with a mutable field updated under a lock by threads on several nodes: enum constants are values
 * in the single-VM mode (each node runs the enum's initializer), so each node counts its own. One JVM prints
 * {@code hits 400}.
 */
public final class MutableEnum {
    enum Level {
        LOW;

        private int hits;

        synchronized void hit() {
            hits++;
        }

        synchronized int hits() {
            return hits;
        }
    }

    public static void main(String[] args) throws Exception {
        Thread[] ts = new Thread[4];
        for (int k = 0; k < ts.length; k++) {
            ts[k] = new Thread(() -> {
                for (int i = 0; i < 100; i++) {
                    Level.LOW.hit();
                }
            });
            ts[k].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        System.out.println("hits " + Level.LOW.hits());
    }
}
