package dev.cumulus.internal.singlevm;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * Reads and writes the state {@link Throwable} keeps in its own private fields — message, cause, stack trace and
 * suppressed exceptions — which no public method sets freely (a message only through a constructor, a cause only
 * once). A copy of a program exception is made without a constructor and gets its home's values here; a JDK exception
 * rebuilt from its value gets its sender's. {@code java.base} does not open {@code java.lang}, so this goes through
 * {@code jdk.internal.misc.Unsafe}, which every node JVM may use ({@code --add-exports
 * java.base/jdk.internal.misc=ALL-UNNAMED}); it is looked up at run time because the module is compiled with
 * {@code --release}, which does not let javac export a JDK package.
 */
final class ThrowableFields {
    private static final MethodHandle GET;
    private static final MethodHandle PUT;
    private static final long MESSAGE;
    private static final long CAUSE;
    private static final long STACK_TRACE;
    private static final long SUPPRESSED;

    static {
        try {
            Class<?> unsafeClass = Class.forName("jdk.internal.misc.Unsafe");
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            Object unsafe = lookup.findStatic(unsafeClass, "getUnsafe", MethodType.methodType(unsafeClass)).invoke();
            MethodHandle offset = lookup.findVirtual(unsafeClass, "objectFieldOffset",
                MethodType.methodType(long.class, Class.class, String.class)).bindTo(unsafe);
            GET = lookup.findVirtual(unsafeClass, "getReferenceVolatile",
                MethodType.methodType(Object.class, Object.class, long.class)).bindTo(unsafe);
            PUT = lookup.findVirtual(unsafeClass, "putReferenceVolatile",
                MethodType.methodType(void.class, Object.class, long.class, Object.class)).bindTo(unsafe);
            MESSAGE = (long) offset.invokeExact(Throwable.class, "detailMessage");
            CAUSE = (long) offset.invokeExact(Throwable.class, "cause");
            STACK_TRACE = (long) offset.invokeExact(Throwable.class, "stackTrace");
            SUPPRESSED = (long) offset.invokeExact(Throwable.class, "suppressedExceptions");
        } catch (Throwable e) {
            throw new IllegalStateException("the single-VM mode needs jdk.internal.misc.Unsafe to share exceptions "
                + "between nodes (run the node with --add-exports java.base/jdk.internal.misc=ALL-UNNAMED, as "
                + "cumulus run does): " + e, e);
        }
    }

    private ThrowableFields() {
    }

    /** The message {@code t} was made with (its field, not an overriding {@code getMessage()}'s answer). */
    static String message(Throwable t) {
        return (String) get(t, MESSAGE);
    }

    /** {@code t}'s cause field as it is: {@code t} itself while no cause was set (so {@code initCause} may). */
    static Throwable rawCause(Throwable t) {
        return (Throwable) get(t, CAUSE);
    }

    /**
     * Sets {@code t}'s message, cause ({@code t} itself: none set yet), stack trace and suppressed exceptions (a new
     * list, so {@code addSuppressed} still adds).
     */
    static void write(Throwable t, String message, Throwable cause, StackTraceElement[] frames,
                      List<Throwable> suppressed) {
        put(t, MESSAGE, message);
        put(t, CAUSE, cause);
        put(t, STACK_TRACE, frames);
        put(t, SUPPRESSED, new java.util.ArrayList<>(suppressed));
    }

    private static Object get(Throwable t, long offset) {
        try {
            return (Object) GET.invokeExact((Object) t, offset);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static void put(Throwable t, long offset, Object value) {
        try {
            PUT.invokeExact((Object) t, offset, value);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
