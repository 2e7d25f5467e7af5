package conform.exit;

/**
 * Main reads, in a loop inside {@code try}/{@code catch}/{@code finally}, a volatile field of an object that a thread
 * on another node made (under {@code --single-vm} each read goes to that node), when that thread calls
 * {@code System.exit(3)}: the run ends with 3, and main neither catches anything nor runs its {@code finally}, as on
 * one JVM, though the node it reads from has left.
 */
public final class ExitWhileMainReadsRemotely {
    private static volatile Box box;
    private static volatile boolean reading;

    private static final class Box {
        volatile int value = 1;
    }

    public static void main(String[] args) {
        Thread t = new Thread(() -> {
            box = new Box();
            while (!reading) {
                Thread.onSpinWait();
            }
            System.out.println("thread: exit(3)");
            System.exit(3);
        });
        t.start();
        while (box == null) {
            Thread.onSpinWait();
        }
        long sum = 0;
        try {
            reading = true;
            while (sum >= 0) {
                sum += box.value;
            }
        } catch (RuntimeException | Error e) {
            System.out.println("main caught (never printed) " + e);
        } finally {
            System.out.println("main finally (never printed) " + sum);
        }
    }
}
