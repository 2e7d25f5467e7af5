package conform.exit;

/**
 * A thread on another node under {@code --single-vm} calls {@code Runtime.getRuntime().halt(6)}; the program's shutdown
 * hook, registered by main, never runs (halt runs no hook), and the run ends with 6.
 */
public final class HaltFromThread {
    public static void main(String[] args) throws InterruptedException {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("hook (never printed)")));
        Thread halter = new Thread(() -> {
            System.out.println("halter: halt(6)");
            Runtime.getRuntime().halt(6);
        });
        halter.start();
        halter.join();
        System.out.println("main: after join (never printed)");
    }
}
