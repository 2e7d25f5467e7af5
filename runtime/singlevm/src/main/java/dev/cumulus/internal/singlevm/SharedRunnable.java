package dev.cumulus.internal.singlevm;

import dev.cumulus.CumulusException;

/**
 * A program's lambda or method reference used as a {@link Runnable} (the usual {@code new Thread(() -> ...)}), as a
 * shared object ({@link SharedLambda}), so a thread may run it on any node. Not user API.
 */
public final class SharedRunnable extends SharedLambda implements Runnable {
    public static int $cumulus$statics;

    /** Made by woven code where the program makes a {@code Runnable} lambda; {@code kind} is a method handle kind. */
    public SharedRunnable(Object[] captures, String owner, String name, String descriptor, int kind) {
        super(captures, owner, name, descriptor, kind);
    }

    @Override
    public void run() {
        try {
            invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new CumulusException(describe(t), t);
        }
    }
}
