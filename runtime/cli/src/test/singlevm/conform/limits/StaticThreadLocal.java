package conform.limits;

/**
 * A ThreadLocal in a static field (the usual idiom) used by threads on every node: the ThreadLocal is a JDK object
 * of node 0. One JVM prints {@code sum 10}.
 */
public final class StaticThreadLocal {
    static final ThreadLocal<int[]> SCRATCH = ThreadLocal.withInitial(() -> new int[1]);
    static int sum;

    public static void main(String[] args) throws Exception {
        Thread[] ts = new Thread[4];
        for (int k = 0; k < ts.length; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                SCRATCH.get()[0] += me + 1;
                synchronized (StaticThreadLocal.class) {
                    sum += SCRATCH.get()[0];
                }
            });
            ts[k].start();
        }
        for (Thread t : ts) {
            t.join();
        }
        System.out.println("sum " + sum);
    }
}
