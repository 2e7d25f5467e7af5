package dev.cumulus.internal.singlevm;

/**
 * A class whose static initializer failed at node 0, the home of its statics, as node 0's answer to another node's
 * fetch of those statics: the node that uses the class throws what one JVM throws at that use — an
 * {@link ExceptionInInitializerError} with the initializer's exception as its cause, or the error it threw as it was
 * (a {@link NoClassDefFoundError} once the class failed earlier) — with the exception carried in the heap's text form
 * ({@link ImageCodec}: a JDK exception by value, a program exception as the shared object it is). Stateless.
 */
final class InitFailure {
    /** The image's class name when the initializer threw an exception: its entry is that exception. */
    static final String THREW = "(its static initializer threw an exception)";
    /** The image's class name when initialising the class failed with an error: its entry is that error. */
    static final String FAILED = "(it cannot be initialised)";

    private InitFailure() {
    }

    /** The answer that says initialising a class at node 0 failed with {@code e}. */
    static ObjectImage image(ObjectSpace space, Error e) {
        boolean threw = e instanceof ExceptionInInitializerError && e.getCause() != null;
        ObjectImage image = ObjectImage.empty(threw ? THREW : FAILED, 1);
        ImageCodec.encode(space, image, 0, Throwable.class, threw ? e.getCause() : e);
        return image;
    }

    /** Whether {@code image} says that the class could not be initialised. */
    static boolean is(ObjectImage image) {
        return THREW.equals(image.className()) || FAILED.equals(image.className());
    }

    /** What the thread that uses the class on this node throws for the failure {@code image} tells of. */
    static Error error(ObjectSpace space, ObjectImage image) {
        Throwable t = (Throwable) ImageCodec.decode(space, image, 0, Throwable.class,
            "the failure of a static initializer at node 0");
        if (!THREW.equals(image.className()) && t instanceof Error error) {
            return error;
        }
        return new ExceptionInInitializerError(t);
    }
}
