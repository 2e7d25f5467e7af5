package dev.cumulus.internal.singlevm;

import java.util.concurrent.Callable;

/**
 * A program's lambda or method reference used as a {@link Callable} (the usual {@code executor.submit(() -> value)}),
 * as a shared object, like {@link SharedRunnable}: a task that a worker on any node may call. Not user API.
 */
public final class SharedCallable implements Callable<Object>, SharedObject {
    public static int $cumulus$statics;
    public transient int $cumulus$state;
    public transient long $cumulus$id;
    private String owner;
    private String name;
    private String descriptor;
    private int kind;
    private Object[] captures;

    /** Made by woven code where the program makes a {@code Callable} lambda; {@code kind} is a method handle kind. */
    public SharedCallable(Object[] captures, String owner, String name, String descriptor, int kind) {
        this.captures = captures;
        this.owner = owner;
        this.name = name;
        this.descriptor = descriptor;
        this.kind = kind;
    }

    @Override
    public Object call() throws Exception {
        ObjectSpace space = ObjectSpace.current();
        if (!Epochs.validHere($cumulus$state)) {
            space.fetch(this, "captures");
        }
        Copy c = space.arrayCopy(captures);
        if (c != null && !Epochs.validHere(c.arrayState)) {
            space.fillRange(c, 0, java.lang.reflect.Array.getLength(captures));
        }
        try {
            return SharedRunnable.target(space, owner, name, descriptor, kind).invokeWithArguments(captures);
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("the lambda " + owner + "." + name + " threw " + t, t);
        }
    }

    @Override
    public String toString() {
        return "lambda " + owner.replace('/', '.') + "." + name;
    }
}
