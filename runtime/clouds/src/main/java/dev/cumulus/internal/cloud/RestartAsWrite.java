package dev.cumulus.internal.cloud;

/**
 * Thrown (without a stack trace) by the cloud runtime when a method classified read reaches a write at run time,
 * e.g. through an override loaded later (Manta §3.1). The read's woven handler catches it and runs the read again
 * as a replicated write. Never escapes to user code.
 */
public final class RestartAsWrite extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient Object target;

    /** @param target the outermost read frame's object, which restarts; inner read frames rethrow. */
    public RestartAsWrite(Object target) {
        super("a read method reached a write; restarting it as a replicated write", null, false, false);
        this.target = target;
    }

    public Object target() {
        return target;
    }
}
