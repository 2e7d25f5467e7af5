package corpus.cum206;

/** Conforming: a plain Object, a program object and a program class have cluster-wide monitors. */
public class ObjectLock {
    private final Object lock = new Object();
    private static long total;
    private long count;

    public void add() {
        synchronized (lock) {
            count++;
        }
    }

    public synchronized void addMine() {
        count++;
    }

    public static void addTotal() {
        synchronized (ObjectLock.class) {
            total++;
        }
    }
}
