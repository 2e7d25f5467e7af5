package corpus.cum207;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Violating: a VarHandle's compareAndSet on another node's copy never reaches the counter's home. */
public class CasCounter {
    private static final VarHandle COUNT;
    private volatile int count;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(CasCounter.class, "count", int.class); // expect: CUM207
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public void increment() {
        int c;
        do {
            c = count;
        } while (!COUNT.compareAndSet(this, c, c + 1));
    }
}
