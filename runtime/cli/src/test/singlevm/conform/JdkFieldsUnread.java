package conform;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Objects and statics that hold mutable JDK objects, used on other nodes only through their other fields: threads
 * (round robin, so on other nodes than main's) write a static array of a class whose statics hold a {@code Random},
 * compute into objects main made with an {@code ArrayList} field, read the string element of an array whose other
 * element is a {@code HashMap}, and overwrite such a field with {@code null} and read it back; none of them reads a
 * JDK object another node made, so each runs as on one JVM (the JDK objects are used on main's node only).
 */
final class JdkFieldsUnread implements Conform.Case {
    static final Random RND = new Random(42);
    static long[] results = new long[4];

    static final class Worker {
        int id;
        int result;
        final List<String> log = new ArrayList<>();
        List<String> scratch = new ArrayList<>();
        boolean scratchGone;

        Worker(int id) {
            this.id = id;
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        long seed = RND.nextLong();
        Thread[] ts = new Thread[results.length];
        for (int i = 0; i < ts.length; i++) {
            int k = i;
            ts[i] = new Thread(() -> {
                Random r = new Random(seed + k);
                long s = 0;
                for (int j = 0; j < 1000; j++) {
                    s += r.nextInt(100);
                }
                results[k] = s;
            });
        }
        Conform.startJoin(ts);
        out.println("randoms " + Arrays.toString(results) + " next " + RND.nextInt(1000));

        Worker[] workers = {new Worker(5), new Worker(6)};
        workers[0].log.add("made on main");
        Object[] mixed = {new java.util.HashMap<String, Integer>(), "plain"};
        String[] seen = new String[workers.length];
        Thread[] ws = new Thread[workers.length];
        for (int i = 0; i < ws.length; i++) {
            Worker w = workers[i];
            int k = i;
            ws[i] = new Thread(() -> {
                w.result = w.id * 2;
                w.scratch = null;
                w.scratchGone = w.scratch == null;
                seen[k] = (String) mixed[1];
            });
        }
        Conform.startJoin(ws);
        for (Worker w : workers) {
            out.println("worker " + w.id + " result " + w.result + " log " + w.log + " scratch gone " + w.scratchGone);
        }
        out.println("seen " + Arrays.toString(seen) + " map " + mixed[0]);
    }
}
