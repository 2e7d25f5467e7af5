package conform;

/**
 * Static state: static initialisers that depend on other classes' statics, a static nested class's statics, static
 * synchronized methods called from threads on every node, interface constants read on other nodes, and a lazily
 * initialised singleton (double-checked locking on a volatile) made exactly once whichever node asks first.
 */
final class Statics implements Conform.Case {
    interface Limits {
        int MAX = 64;
        String NAME = "limits";
        long[] PRIMES = {2, 3, 5, 7, 11};
        Statics.Config DEFAULT = new Statics.Config("default", 3);
    }

    record Config(String name, int level) {
    }

    static final class First {
        static final int BASE = Second.OFFSET * 2 + 1;
        static int[] table = build();

        static int[] build() {
            int[] t = new int[5];
            for (int i = 0; i < t.length; i++) {
                t[i] = BASE + i * Second.OFFSET;
            }
            return t;
        }
    }

    static final class Second {
        static final int OFFSET = Integer.parseInt("21");
        static String greeting;

        static {
            greeting = "offset " + OFFSET;
        }
    }

    static final class Counter {
        private static long count;
        private static int calls;

        static synchronized void add(long v) {
            count += v;
            calls++;
        }

        static synchronized String show() {
            return count + "/" + calls;
        }
    }

    static final class Singleton {
        private static volatile Singleton instance;
        private static int made;
        final long stamp;

        private Singleton(long stamp) {
            this.stamp = stamp;
        }

        static Singleton get() {
            Singleton s = instance;
            if (s == null) {
                synchronized (Singleton.class) {
                    s = instance;
                    if (s == null) {
                        made++;
                        s = new Singleton(1234567L);
                        instance = s;
                    }
                }
            }
            return s;
        }

        static synchronized int made() {
            return made;
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        int n = 4;
        Singleton[] seen = new Singleton[n];
        String[] views = new String[n];
        Thread[] ts = new Thread[n];
        for (int k = 0; k < n; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                for (int i = 1; i <= 50; i++) {
                    Counter.add(i * (me + 1));
                }
                seen[me] = Singleton.get();
                views[me] = First.BASE + " " + First.table[4] + " " + Second.greeting + " " + Limits.MAX + " "
                    + Limits.NAME + " " + Limits.PRIMES[4] + " " + Limits.DEFAULT + " " + seen[me].stamp;
            });
        }
        Conform.startJoin(ts);
        boolean same = true;
        for (Singleton s : seen) {
            same &= s == seen[0] && s == Singleton.get();
        }
        out.println("counter " + Counter.show() + " singleton made " + Singleton.made() + " same " + same);
        for (String v : views) {
            out.println(v);
        }
    }
}
