package conform.limits;

/**
 * An object a static initializer made before it failed (at node 0, main's first use), read by a thread of node 1: one
 * JVM reads it without error, but node 1 cannot make its copy (the JVM makes no object of a class whose initialisation
 * failed), so the run ends with a message naming the object, its class and what to do.
 */
public final class FailedInitObject {
    static Object kept;

    static final class Fails {
        static final int VALUE;

        static {
            kept = new Fails();
            if (kept != null) {
                throw new IllegalStateException("boom");
            }
            VALUE = 1;
        }
    }

    public static void main(String[] args) throws Exception {
        try {
            System.out.println("value " + Fails.VALUE);
        } catch (ExceptionInInitializerError e) {
            System.out.println("failed " + e.getCause().getMessage());
        }
        Thread t = new Thread(() -> System.out.println("kept " + (kept != null)));
        t.start();
        t.join();
    }
}
