package conform;

/**
 * Inner (non-static) classes, anonymous classes and a local class as thread tasks: they read and write their
 * enclosing instance's fields and captured locals from other nodes, and an anonymous Thread subclass overrides run.
 */
final class InnerClasses implements Conform.Case {
    private long total;
    private final long[] perTask = new long[6];
    private String last = "none";

    /** An inner class: its enclosing instance is reached from the thread's node. */
    final class Adder implements Runnable {
        private final int k;

        Adder(int k) {
            this.k = k;
        }

        @Override
        public void run() {
            long s = 0;
            for (int i = 1; i <= 100; i++) {
                s += (long) i * k;
            }
            perTask[k] = s;
            synchronized (InnerClasses.this) {
                total += s;
            }
        }

        /** An inner class of an inner class. */
        final class Deeper implements Runnable {
            @Override
            public void run() {
                perTask[k] = -k;
                synchronized (InnerClasses.this) {
                    last = "deeper " + k + " of " + perTask.length;
                }
            }
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        int base = 1000;
        String tag = "anon";
        InnerClasses self = this;
        Runnable anon = new Runnable() {
            private int calls;

            @Override
            public void run() {
                calls++;
                synchronized (self) {
                    total += base + calls;
                    perTask[2] = base * 2;
                }
            }

            @Override
            public String toString() {
                return tag + " calls=" + calls;
            }
        };
        class Local implements Runnable {
            final int[] seen = new int[1];

            @Override
            public void run() {
                synchronized (self) {
                    seen[0] = (int) perTask[0] + base;
                    perTask[3] = 33;
                }
            }
        }
        Local local = new Local();
        Adder adder4 = new Adder(4);
        Thread sub = new Thread("anon-thread") {
            @Override
            public void run() {
                perTask[5] = getName().length() + base;
            }
        };
        Conform.startJoin(new Thread(new Adder(0)), new Thread(new Adder(1)), new Thread(anon),
            new Thread(adder4), sub);
        Conform.startJoin(new Thread(local), new Thread(adder4.new Deeper()));
        out.println("total=" + total + " last=" + last + " anon=" + anon + " local=" + local.seen[0]);
        StringBuilder b = new StringBuilder();
        for (long v : perTask) {
            b.append(v).append(' ');
        }
        out.println("perTask " + b.toString().trim());
    }
}
