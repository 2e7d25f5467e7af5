package dev.cumulus.internal.singlevm;

/**
 * An uncaught exception of a program thread that ran on another node, in the heap's exception text
 * ({@link ThrowableText}): a JDK exception by value (class, message, stack trace, cause chain, suppressed exceptions),
 * a program exception as the shared object it is. The creator's node rebuilds it ({@link ThrowableValues}) for the
 * thread's uncaught-exception handler, which so gets what one JVM would hand it: the same class, its own fields (a
 * program exception's are fetched from the node that threw it when read), and its cause.
 */
record ThreadFailure(String text) {
    /** The failure {@code e} of a thread of {@code space}'s node, as text. */
    static ThreadFailure of(Throwable e, ObjectSpace space) {
        return new ThreadFailure(ThrowableText.value(e, space::idOf));
    }

    /**
     * The exception to hand to the handler, made on {@code space}'s node; one this node cannot make (its class is
     * missing here) becomes an {@code IllegalStateException} saying why.
     */
    Throwable rebuild(ObjectSpace space) {
        try {
            return ThrowableValues.value(space, text);
        } catch (RuntimeException e) {
            return new IllegalStateException("the thread failed with an exception this node cannot rebuild: "
                + e.getMessage(), e);
        }
    }
}
