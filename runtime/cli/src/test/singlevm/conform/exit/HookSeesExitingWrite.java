package conform.exit;

/**
 * A thread on another node under {@code --single-vm} writes a static inside a {@code synchronized} block and calls
 * {@code System.exit(4)} before leaving it; the shutdown hook main registered on node 0 prints the value. One JVM's
 * exiting thread starts the hooks, so the hook sees the write: the exit must write it back before any node ends.
 */
public final class HookSeesExitingWrite {
    private static final Object LOCK = new Object();
    private static int counter;

    public static void main(String[] args) throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook: counter=" + counter)));
        Thread exiter = new Thread(() -> {
            synchronized (LOCK) {
                counter = 42;
                System.exit(4);
            }
        }, "exiter");
        exiter.start();
        exiter.join();
        System.out.println("main: after join (never printed)");
    }
}
