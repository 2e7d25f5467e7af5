package conform.limits;

/**
 * A string of 17,000,000 chars (more than one message of the shared heap carries) made by a thread on another node and
 * stored into main's object under its monitor: one JVM prints {@code length 17000000}; the single-VM run fails with a
 * message naming the field, the string's length and both nodes.
 */
public final class LongString {
    static final class Holder {
        String text;
    }

    public static void main(String[] args) throws Exception {
        Holder h = new Holder();
        Thread t = new Thread(() -> {
            String text = "x".repeat(17_000_000);
            synchronized (h) {
                h.text = text;
            }
        }, "writer");
        t.start();
        t.join();
        synchronized (h) {
            System.out.println("length " + h.text.length());
        }
    }
}
