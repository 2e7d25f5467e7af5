package conform;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Runs the conformance cases named on the command line (every case but the large ones when none is), one after the
 * other; only main prints, each line prefixed with the case's name, so the output is the same on one JVM and under
 * {@code --single-vm} whatever node runs which thread.
 */
public final class Conform {
    /** One conformance case. */
    interface Case {
        /** Runs the case, printing its result lines with {@code out}. */
        void run(Out out) throws Exception;
    }

    /** The cases by name, in the order they run. */
    static final Map<String, Case> CASES = new LinkedHashMap<>();
    /** Cases that run only when named (large shapes, which take seconds per run). */
    static final Map<String, Case> LARGE = new LinkedHashMap<>();

    static {
        CASES.put("hierarchy", new Hierarchy());
        CASES.put("inner", new InnerClasses());
        CASES.put("functions", new Functions());
        CASES.put("enums", new Enums());
        CASES.put("records", new Records());
        CASES.put("recordmethods", new RecordMethods());
        CASES.put("cloning", new Cloning());
        CASES.put("arrays", new ArraysCase());
        CASES.put("multiarrays", new MultiArrays());
        CASES.put("jdkarrays", new JdkArrays());
        CASES.put("jdkarraycalls", new JdkArrayCalls());
        CASES.put("strings", new Strings());
        CASES.put("literals", new Literals());
        CASES.put("boxes", new Boxes());
        CASES.put("equality", new Equality());
        CASES.put("statics", new Statics());
        CASES.put("exceptions", new Exceptions());
        CASES.put("throwables", new Throwables());
        CASES.put("threadapi", new ThreadApi());
        CASES.put("builders", new Builders());
        CASES.put("jdkpool", new JdkPool());
        CASES.put("uncaught", new Uncaught());
        CASES.put("buffer", new BoundedBuffer());
        CASES.put("philosophers", new Philosophers());
        CASES.put("mergesort", new MergeSort());
        CASES.put("prefixsum", new PrefixSum());
        CASES.put("table", new StripedTable());
        CASES.put("misc", new Misc());
        CASES.put("monitors", new Monitors());
        CASES.put("classinit", new ClassInit());
        CASES.put("initwrites", new InitWrites());
        CASES.put("initlocks", new InitLocks());
        CASES.put("reflection", new Reflection());
        CASES.put("corners", new Corners());
        CASES.put("jdkfields", new JdkFieldsUnread());
        CASES.put("daemons", new Daemons()); // last: its daemon threads run on until the program ends
        LARGE.put("largeshapes", new LargeShapes());
    }

    private Conform() {
    }

    public static void main(String[] args) throws Exception {
        String[] names = args.length == 0 ? CASES.keySet().toArray(String[]::new) : args;
        for (String name : names) {
            Case c = CASES.containsKey(name) ? CASES.get(name) : LARGE.get(name);
            if (c == null) {
                throw new IllegalArgumentException("no case " + name + "; cases: " + CASES.keySet() + " "
                    + LARGE.keySet());
            }
            c.run(new Out(name));
        }
        System.out.println("conform: done " + names.length);
    }

    /** Prints a case's lines, each prefixed with the case's name. */
    static final class Out {
        private final String name;

        Out(String name) {
            this.name = name;
        }

        void println(Object line) {
            System.out.println(name + ": " + line);
        }
    }

    /** Starts every thread, then joins every one. */
    static void startJoin(Thread... threads) throws InterruptedException {
        for (Thread t : threads) {
            t.start();
        }
        for (Thread t : threads) {
            t.join();
        }
    }
}
