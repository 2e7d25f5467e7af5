package conform;

/**
 * Class initialisation across nodes: a thread on another node reads a log's statics, then first touches a nested
 * class whose static initialiser appends to that log; what the initialiser wrote must be visible to the thread after
 * it used the class (JLS 12.4.2: the initialisation happens before any use), and the order of the entries is the order
 * of first use; classes used on another node through a static method or a constructor only (no static read) are
 * initialised all the same. Initializers that fail (a JDK exception, a program exception, an error), first on another
 * node and first on main's: what each use throws. The thread an initializer runs on has the name of the thread whose
 * use triggered it, also when that thread is on another node.
 */
final class ClassInit implements Conform.Case {
    static final class Log {
        static final String[] entries = new String[8];
        static int count;

        static synchronized void add(String entry) {
            entries[count++] = entry;
        }

        static synchronized int size() {
            return count;
        }
    }

    static final class Alpha {
        static final long STAMP;
        static int uses;

        static {
            Log.add("alpha");
            STAMP = Log.count * 100L + 1;
        }
    }

    static final class Beta {
        static final int[] TABLE = new int[4];

        static {
            for (int i = 0; i < TABLE.length; i++) {
                TABLE[i] = (i + 1) * Alpha.STAMP > 0 ? i * 7 : -1;
            }
            Log.add("beta");
        }
    }

    static final class Gamma {
        static String name = "gamma";

        static {
            Log.entries[Log.count++] = name + " plain";
        }
    }

    static final class Delta {
        static {
            Log.add("delta");
        }

        static int twice(int v) {
            return 2 * v;
        }
    }

    static final class Epsilon {
        final int made;

        static {
            Log.add("epsilon");
        }

        Epsilon(int made) {
            this.made = made;
        }
    }

    /** Its initializer notes the thread that runs it: on one JVM, the thread whose use of the class initialises it. */
    static final class Zeta {
        static final String INITIALISED_BY = Thread.currentThread().getName();
    }

    /** As {@link Zeta}, used by another thread (of two threads in a row, one runs on a node other than main's). */
    static final class Eta {
        static final String INITIALISED_BY = Thread.currentThread().getName();
    }

    /** A program exception with a field of its own, thrown by an initializer. */
    static final class Oops extends RuntimeException {
        final int code;

        Oops(int code) {
            super("oops " + code);
            this.code = code;
        }
    }

    static final class FailsOnOther {
        static final int VALUE = Integer.parseInt("x1");
    }

    static final class FailsOnMain {
        static final int VALUE = Integer.parseInt("x2");
    }

    static final class ThrowsProgramException {
        static final int VALUE;

        static {
            if (Log.size() >= 0) {
                throw new Oops(17);
            }
            VALUE = 1;
        }
    }

    static final class ThrowsError {
        static final int VALUE;

        static {
            if (Log.size() >= 0) {
                throw new AssertionError("no");
            }
            VALUE = 1;
        }
    }

    /** What using a class whose initializer fails throws, as one line. */
    static String failure(java.util.function.IntSupplier use) {
        try {
            return "value " + use.getAsInt();
        } catch (Throwable t) {
            Throwable c = t.getCause();
            return t.getClass().getSimpleName() + " " + t.getMessage() + " cause " + (c == null ? null
                : c.getClass().getSimpleName() + (c instanceof Oops o ? " " + o.getMessage() + " " + o.code
                    : c instanceof NumberFormatException ? " " + c.getMessage() : ""));
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        String[] seen = new String[1];
        Thread t = new Thread(() -> {
            int before = Log.count;
            String first = Log.entries[0];
            Alpha.uses++;
            int afterAlpha = Log.count;
            String alphaEntry = Log.entries[0];
            long stamp = Alpha.STAMP;
            int betaThird = Beta.TABLE[3];
            int afterBeta = Log.count;
            String gamma = Gamma.name;
            int afterGamma = Log.count;
            int twice = Delta.twice(21);
            int afterDelta = Log.count;
            int made = new Epsilon(5).made;
            seen[0] = twice + " " + afterDelta + " " + made + " " + Log.count + " " + before + " " + first + " " + afterAlpha + " " + alphaEntry + " " + stamp + " " + betaThird + " "
                + afterBeta + " " + Log.entries[1] + " " + gamma + " " + afterGamma + " " + Log.entries[2];
        });
        t.start();
        t.join();
        out.println(seen[0]);
        String mainFirst = failure(() -> FailsOnMain.VALUE);
        String[] failures = new String[5];
        Thread f = new Thread(() -> {
            failures[0] = failure(() -> FailsOnOther.VALUE);
            failures[1] = failure(() -> FailsOnOther.VALUE);
            failures[2] = failure(() -> FailsOnMain.VALUE);
            failures[3] = failure(() -> ThrowsProgramException.VALUE);
            failures[4] = failure(() -> ThrowsError.VALUE);
        });
        f.start();
        f.join();
        out.println("main first: " + mainFirst);
        for (String line : failures) {
            out.println(line);
        }
        out.println("main after: " + failure(() -> FailsOnOther.VALUE) + " | " + failure(() -> ThrowsError.VALUE));
        out.println("log " + Log.size() + " " + String.join(",", java.util.Arrays.copyOf(Log.entries, Log.count))
            + " uses " + Alpha.uses);
        String[] initialisers = new String[2];
        Thread zeta = new Thread(() -> initialisers[0] = Zeta.INITIALISED_BY, "zeta-user");
        Thread eta = new Thread(() -> initialisers[1] = Eta.INITIALISED_BY, "eta-user");
        zeta.start();
        eta.start();
        zeta.join();
        eta.join();
        out.println("initialised by " + initialisers[0] + " and " + initialisers[1]);
    }
}
