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
    static Throwable rebuild(Info[] chain, Class<?>[] declared, ClassLoader loader, TransferAllowList allowList) {
        Throwable cause = null;
        for (int i = chain.length - 1; i >= 0; i--) {
            Info info = chain[i];
            Attempt attempt = recreate(info, declared, loader, allowList);
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

    private static Attempt recreate(Info info, Class<?>[] declared, ClassLoader loader, TransferAllowList allowList) {
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
            || RuntimeException.class.isAssignableFrom(type) && isApplicationClass(type)
            && (allowList.permitsName(name) || isCumulusApi(name));
        if (!allowed) {
            return new Attempt(null, unchecked
                ? "an undeclared exception of the application is re-created only when registered: declare it in the "
                    + "interface method's throws clause or call Transfers.allow(" + simpleName(name) + ".class)"
                : "the interface method does not declare it; add it to the throws clause to receive it as is");
        }
        Constructor<?> constructor;
        try {
            constructor = type.getConstructor(String.class);
        } catch (NoSuchMethodException e) {
            constructor = messageAsObjectConstructor(type, name, info.message());
            if (constructor == null) {
                return new Attempt(null, "it has no public (String) constructor");
            }
        }
        try {
            constructor.trySetAccessible();
            return new Attempt((Throwable) (constructor.getParameterCount() == 0 ? constructor.newInstance()
                : constructor.newInstance(info.message())), null);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return new Attempt(null, "its (String) constructor failed here: " + e);
        }
    }

    /**
     * The JDK's {@code (Object)} constructor of a {@code java.*} throwable, which takes a string as the message:
     * {@link AssertionError}'s (a failed {@code assert}, {@code throw new AssertionError("...")}), or for no message
     * its no-argument one (the {@code (Object)} one would make the message "null"); null otherwise.
     */
    private static Constructor<?> messageAsObjectConstructor(Class<?> type, String name, String message) {
        if (!name.startsWith("java.")) {
            return null;
        }
        try {
            Constructor<?> withObject = type.getConstructor(Object.class);
            return message != null ? withObject : type.getConstructor();
        } catch (NoSuchMethodException e) {
            return null;
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

    /** A class of Cumulus's public API ({@code dev.cumulus}, not its internal packages): its exception family. */
    private static boolean isCumulusApi(String name) {
        return name.startsWith("dev.cumulus.") && name.indexOf('.', "dev.cumulus.".length()) < 0;
    }

    private static String simpleName(String name) {
        return name.substring(Math.max(name.lastIndexOf('.'), name.lastIndexOf('$')) + 1);
    }

    /** Loaded by neither the boot nor the platform class loader: the application's own (or a library's) class. */
    private static boolean isApplicationClass(Class<?> type) {
        ClassLoader loader = type.getClassLoader();
        return loader != null && loader != ClassLoader.getPlatformClassLoader();
    }
}
