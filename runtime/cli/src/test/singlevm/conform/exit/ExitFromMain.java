package conform.exit;

/**
 * Main calls {@code Runtime.getRuntime().exit(5)} while it holds a monitor its two threads (on other nodes under
 * {@code --single-vm}) are blocked on: the run ends with 5 and the threads never get the monitor.
 */
public final class ExitFromMain {
    private static final Object GATE = new Object();
    private static final Object COUNT = new Object();
    private static int started;

    public static void main(String[] args) throws InterruptedException {
        synchronized (GATE) {
            for (int i = 0; i < 2; i++) {
                new Thread(ExitFromMain::enter, "blocked-" + i).start();
            }
            synchronized (COUNT) {
                while (started < 2) {
                    COUNT.wait();
                }
            }
            System.out.println("main: both threads started; exit(5)");
            Runtime.getRuntime().exit(5);
        }
    }

    private static void enter() {
        synchronized (COUNT) {
            started++;
            COUNT.notifyAll();
        }
        synchronized (GATE) {
            System.out.println(Thread.currentThread().getName() + ": got the gate (never printed)");
        }
    }
}
