package dev.cumulus.internal.singlevm;

import java.util.concurrent.Callable;

/**
 * A program's lambda or method reference used as a {@link Callable} (the usual {@code executor.submit(() -> value)}),
 * as a shared object ({@link SharedLambda}): a task that a worker on any node may call. Not user API.
 */
public final class SharedCallable extends SharedLambda implements Callable<Object> {
    public static int $cumulus$statics;

    /** Made by woven code where the program makes a {@code Callable} lambda; {@code kind} is a method handle kind. */
    public SharedCallable(Object[] captures, String owner, String name, String descriptor, int kind) {
        super(captures, owner, name, descriptor, kind);
    }

    @Override
    public Object call() throws Exception {
        try {
            return invoke();
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(describe(t), t);
        }
    }
}
