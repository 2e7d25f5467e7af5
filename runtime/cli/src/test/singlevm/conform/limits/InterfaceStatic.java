package conform.limits;

/**
 * An interface's static array (per node in the single-VM mode) written by a thread on another node: one JVM prints
 * {@code table 7}.
 */
public final class InterfaceStatic {
    interface Tables {
        int[] TABLE = new int[1];
    }

    public static void main(String[] args) throws Exception {
        Thread t = new Thread(() -> Tables.TABLE[0] = 7, "writer");
        t.start();
        t.join();
        System.out.println("table " + Tables.TABLE[0]);
    }
}
