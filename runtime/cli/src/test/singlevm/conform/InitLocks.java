package conform;

/**
 * Static initializers at node 0 whose writes reach a thread that holds more than the lock of the class it waits for:
 * the thread's first use of a class first initialises the class's superclass, an interface with a default method it
 * implements, or runs an enum's initializer (on every node) that uses the class, and node 0's initializer of that other
 * class stores an object of the class being initialised (or an enum constant) into an object the thread made; it must
 * be there when the use goes on, as on one JVM (JLS 12.4.2). Also an initializer that writes and then fails: the
 * write is seen with the failure; and one that waits for a monitor which a thread of another node holds until it reads
 * what the initializer wrote before (node 0 must serve that read meanwhile). And a class a thread's node first meets
 * in a write-back (an object of it, stored into the thread's own object by a thread of a third node): the thread's
 * first use of the class then sees what its initializer wrote into another object, as one JVM's initialisation happens
 * before any use. Each runs on a thread away from main's node when there is one.
 */
final class InitLocks implements Conform.Case {
    static final class Box {
        int value;
        Object ref;
    }

    static volatile Box handed;

    /** Its initializer stores an object of its subclass, whose first use initialises it. */
    static class Base {
        static final int B;
        final int v;

        static {
            handed.value = 42;
            handed.ref = new Sub(7);
            B = 1;
        }

        Base(int v) {
            this.v = v;
        }
    }

    static final class Sub extends Base {
        static final int S;

        static {
            S = 2;
        }

        Sub(int v) {
            super(v);
        }
    }

    /** Its initializer stores a constant of the enum whose initializer uses it. */
    static final class Config {
        static final int VALUE;

        static {
            handed.value = 43;
            handed.ref = Color.GREEN;
            VALUE = 3;
        }
    }

    enum Color {
        RED, GREEN;
        static final int K = Config.VALUE;
    }

    /** Its initializer stores an object of a class whose first use initialises the interface that uses it. */
    static final class Sides {
        static final int COUNT;

        static {
            handed.value = 44;
            handed.ref = new Square();
            COUNT = 4;
        }
    }

    interface Shape {
        int SIDES = Sides.COUNT;

        default int sides() {
            return SIDES;
        }
    }

    static final class Square implements Shape {
        static final int K;

        static {
            K = 9;
        }
    }

    /** Its initializer writes, then throws. */
    static final class Fails {
        static final int V;

        static {
            handed.value = 45;
            if (handed.value == 45) {
                throw new IllegalStateException("boom");
            }
            V = 1;
        }
    }

    static volatile boolean entering;
    static volatile boolean holding;
    static final Object gate = new Object();
    static final Counter askers = new Counter();

    static final class Counter {
        int count;
    }

    static int asking() {
        synchronized (askers) {
            return askers.count;
        }
    }

    /**
     * Its initializer waits for {@link #gate}, held by a thread that waits for it to begin and for three threads to
     * ask for it (three nodes at once with four nodes: node 0 serves the holder's reads meanwhile).
     */
    static final class Locking {
        static final int L;

        static {
            entering = true;
            synchronized (gate) {
                L = 5;
            }
        }
    }

    static final class Cell {
        int value;
    }

    static volatile Cell cell;

    /** {@link Box#ref}'s handle, made on the calling thread's node (a JDK object stays on its node). */
    static java.lang.invoke.VarHandle boxRef() {
        try {
            return java.lang.invoke.MethodHandles.lookup().findVarHandle(Box.class, "ref", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Its initializer writes {@link #cell}, which a thread on another node read before. */
    static final class Registered {
        static {
            cell.value = 46;
        }

        static int touch() {
            return 1;
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        String[] seen = new String[6];
        Box[] kept = new Box[1];
        awayFromMain(() -> {
            Box mine = new Box();
            handed = mine;
            int s = Sub.S;
            seen[0] = "sub " + s + " " + Base.B + " value " + mine.value + " ref "
                + (mine.ref instanceof Sub x ? "sub " + x.v : String.valueOf(mine.ref));
        });
        awayFromMain(() -> {
            Box mine = new Box();
            handed = mine;
            int k = Color.K;
            seen[1] = "enum " + k + " value " + mine.value + " ref " + mine.ref;
        });
        awayFromMain(() -> {
            Box mine = new Box();
            handed = mine;
            int k = Square.K;
            seen[2] = "interface " + k + " value " + mine.value + " ref "
                + (mine.ref instanceof Square q ? "square " + q.sides() : String.valueOf(mine.ref));
        });
        awayFromMain(() -> {
            Box mine = new Box();
            kept[0] = mine; // homed at main's node from the next release on: the initializer writes the master there
            handed = mine;
            String first;
            try {
                first = "value " + Fails.V;
            } catch (ExceptionInInitializerError e) {
                first = "threw " + e.getCause().getMessage();
            }
            seen[3] = "fails " + first + " value " + mine.value;
        });
        int[] locking = new int[3];
        Runnable[] holderAndUsers = new Runnable[1 + locking.length];
        holderAndUsers[0] = () -> {
            synchronized (gate) {
                holding = true;
                while (!entering || asking() < locking.length) {
                    Thread.onSpinWait();
                }
            }
        };
        for (int u = 0; u < locking.length; u++) {
            int me = u;
            holderAndUsers[1 + u] = () -> {
                while (!holding) {
                    Thread.onSpinWait();
                }
                synchronized (askers) {
                    askers.count++;
                }
                locking[me] = Locking.L;
            };
        }
        awayFromMain(holderAndUsers);
        seen[4] = "locking " + java.util.Arrays.toString(locking) + " " + entering;
        cell = new Cell();
        handed = null;
        awayFromMain(() -> {
            Cell c = cell;
            int before = c.value; // its copy, filled now
            Box mine = new Box();
            java.lang.invoke.VarHandle ref = boxRef();
            handed = mine;
            while (ref.getOpaque(mine) == null) {
                Thread.onSpinWait(); // no acquire: the store of main's write-back only
            }
            int touched = Registered.touch();
            seen[5] = "registered before " + before + " after " + c.value + " touched " + touched;
        }, () -> {
            while (handed == null) {
                Thread.onSpinWait();
            }
            handed.ref = new Registered(); // its first use: initialised at node 0
            handed = handed; // a release: the write-back goes to the box's node (another, with three nodes or more)
        });
        for (String line : seen) {
            out.println(line);
        }
    }

    /** Which of the threads {@link #awayFromMain} started run away from main's node. */
    static final class Placement {
        final boolean[] away = new boolean[16];
        int decided;
    }

    /**
     * Runs each of {@code tasks} at once on a new thread of a node other than main's, then waits for them: threads go
     * to the nodes round robin, so every few threads one does (on one JVM, where every thread is main's process's,
     * the fifth and following threads run them).
     */
    static void awayFromMain(Runnable... tasks) throws InterruptedException {
        long mainPid = ProcessHandle.current().pid();
        Placement p = new Placement();
        java.util.List<Thread> started = new java.util.ArrayList<>();
        for (int i = 0, given = 0; given < tasks.length; i++) {
            int me = i;
            boolean anyway = i >= 4;
            Runnable task = tasks[given];
            Thread t = new Thread(() -> {
                boolean away = anyway || ProcessHandle.current().pid() != mainPid;
                synchronized (p) {
                    p.away[me] = away;
                    p.decided++;
                    p.notifyAll();
                }
                if (away) {
                    task.run();
                }
            });
            t.start();
            started.add(t);
            synchronized (p) {
                while (p.decided <= me) {
                    p.wait();
                }
                if (p.away[me]) {
                    given++;
                }
            }
        }
        for (Thread t : started) {
            t.join();
        }
    }
}
