package conform.limits;

/**
 * {@code synchronized} on a string literal (one interned object on one JVM) by threads on several nodes: a String
 * is a JDK object, whose monitor is node-local in the single-VM mode, so threads of different nodes are not
 * excluded and increments are lost (not every run). One JVM prints {@code count 8000}.
 */
public final class StringLiteralLock {
    static final String LOCK = "lock";

    static final class Counter {
        long count;
    }

    public static void main(String[] args) throws Exception {
        Counter c = new Counter();
        Thread[] ts = new Thread[4];
        for (int k = 0; k < ts.length; k++) {
            ts[k] = new Thread(() -> {
                for (int i = 0; i < 2000; i++) {
                    synchronized (LOCK) {
                        c.count++;
                    }
                }
            });
            ts[k].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        System.out.println("count " + c.count);
    }
}
