package conform.exit;

/**
 * A thread the program started (on another node under {@code --single-vm}) calls {@code System.exit(7)} while main
 * waits in {@code join} and a second thread waits in {@code wait()} on a monitor of main's node: the run ends with 7,
 * and neither main nor the waiter prints again.
 */
public final class ExitFromThread {
    private static final Object LOCK = new Object();
    private static boolean released;

    public static void main(String[] args) throws InterruptedException {
        Thread waiter = new Thread(ExitFromThread::waitForever, "waiter");
        waiter.start();
        Thread exiter = new Thread(() -> {
            System.out.println("exiter: exit(7)");
            System.exit(7);
        }, "exiter");
        exiter.start();
        exiter.join();
        System.out.println("main: after join (never printed)");
    }

    private static void waitForever() {
        synchronized (LOCK) {
            while (!released) {
                try {
                    LOCK.wait();
                } catch (InterruptedException e) {
                    System.out.println("waiter: interrupted (never printed)");
                    return;
                }
            }
        }
        System.out.println("waiter: released (never printed)");
    }
}
