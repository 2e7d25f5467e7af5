package dev.cumulus.internal.codec;

import dev.cumulus.RemoteCallException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;

/**
 * Turns a decoded remote cause chain into local throwables. Re-creates an exception's own type only under the rules
 * documented on {@link ValueReader#readThrowable(Class[])}; never instantiates any other class.
 */
final class RemoteThrowables {

    /** One decoded throwable of a remote cause chain. */
    record Info(String className, String message, StackTraceElement[] frames) {
    }

    private RemoteThrowables() {
    }

    /** @param chain outermost first */
    static Throwable rebuild(Info[] chain, Class<?>[] declared, ClassLoader loader) {
        Throwable cause = null;
        for (int i = chain.length - 1; i >= 0; i--) {
            Info info = chain[i];
            Attempt attempt = recreate(info, declared, loader);
            Throwable local = attempt.throwable;
            if (local != null) {
                local.setStackTrace(info.frames());
                if (cause != null && local.getCause() == null) {
                    try {
                        local.initCause(cause);
                    } catch (IllegalStateException | IllegalArgumentException ignored) {
                        // the constructor fixed the cause already; keep the remote details in the trace alone
                    }
                }
            } else {
                RemoteThrowable remote = new RemoteThrowable(info.className(), info.message(), info.frames(), cause);
                local = i > 0 ? remote : new RemoteCallException("remote call failed with " + remote + " ("
                    + attempt.reason + ")", remote);
            }
            cause = local;
        }
        return cause;
    }

    private record Attempt(Throwable throwable, String reason) {
    }

    private static Attempt recreate(Info info, Class<?>[] declared, ClassLoader loader) {
        String name = info.className();
        Class<?> type;
        try {
            type = Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError | IllegalArgumentException e) {
            return new Attempt(null, "its class is not available on this node");
        }
        if (!Throwable.class.isAssignableFrom(type) || Modifier.isAbstract(type.getModifiers())) {
            return new Attempt(null, "it is not a concrete throwable class here");
        }
        boolean unchecked = RuntimeException.class.isAssignableFrom(type) || Error.class.isAssignableFrom(type);
        boolean allowed = unchecked && name.startsWith("java.")
            || isDeclared(type, declared)
            || RuntimeException.class.isAssignableFrom(type) && isApplicationClass(type);
        if (!allowed) {
            return new Attempt(null, unchecked
                ? "only java.* exceptions, declared exceptions and application RuntimeExceptions are re-created"
                : "the interface method does not declare it; add it to the throws clause to receive it as is");
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor(String.class);
        } catch (NoSuchMethodException e) {
            return new Attempt(null, "it has no public (String) constructor");
        }
        try {
            constructor.trySetAccessible();
            return new Attempt((Throwable) constructor.newInstance(info.message()), null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return new Attempt(null, "its (String) constructor failed here: " + e);
        }
    }

    private static boolean isDeclared(Class<?> type, Class<?>[] declared) {
        for (Class<?> d : declared) {
            if (d != null && Throwable.class.isAssignableFrom(d) && d.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }

    /** Loaded by neither the boot nor the platform class loader: the application's own (or a library's) class. */
    private static boolean isApplicationClass(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader != null && loader != ClassLoader.getPlatformClassLoader();
    }
}
