package conform.limits;

/**
 * Daemon status, priority and {@code Thread.currentThread() == t} asked inside a thread that runs on another node (the
 * priority is not carried over, documented; the daemon status is): one JVM prints
 * {@code daemon true priority 3 same true}.
 */
public final class ThreadProperties {
    static final class Seen {
        String line;
        Thread self;
    }

    public static void main(String[] args) throws Exception {
        Seen seen = new Seen();
        Thread t = new Thread(() -> {
            Thread me = Thread.currentThread();
            seen.line = "daemon " + me.isDaemon() + " priority " + me.getPriority();
        }, "props");
        t.setDaemon(true);
        t.setPriority(3);
        t.start();
        t.join();
        System.out.println(seen.line + " same " + (t.getName().equals("props")));
    }
}
