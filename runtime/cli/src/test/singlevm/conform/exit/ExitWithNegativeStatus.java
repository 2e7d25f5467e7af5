package conform.exit;

/**
 * A thread on another node under {@code --single-vm} calls {@code System.exit(-1)}: a process's exit code keeps the
 * status's low 8 bits, so one JVM ends with 255, and so must the run (and its {@code result.properties}).
 */
public final class ExitWithNegativeStatus {
    public static void main(String[] args) throws InterruptedException {
        Thread exiter = new Thread(() -> {
            System.out.println("exiter: exit(-1)");
            System.exit(-1);
        }, "exiter");
        exiter.start();
        exiter.join();
        System.out.println("main: after join (never printed)");
    }
}
