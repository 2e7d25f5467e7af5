package dev.cumulus.internal.singlevm;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The part of an exception's state that {@link Throwable} itself keeps: its message, its cause, its stack trace and
 * its suppressed exceptions. The last entry of a program exception's {@link ClassLayout} (after the program's fields),
 * so it travels with the object's image and is written into a copy when the copy is filled; and the body of a JDK
 * exception's value ({@link ThrowableText}). Equal when each part is: the message by value, the frames element by
 * element, the cause and the suppressed exceptions by identity.
 *
 * @param message    the message the exception was made with
 * @param causeSet   false while no cause was set (then {@code initCause} may still set one)
 * @param cause      the cause ({@code null}: none, or not set)
 * @param frames     the stack trace
 * @param suppressed the suppressed exceptions
 * @param owner      the exception this is the state of, when read from one ({@code null} when decoded): its text names
 *                   it where the state refers back to it (a cause cycle) instead of writing the state again; not part
 *                   of equality
 */
record ThrowableState(String message, boolean causeSet, Throwable cause, StackTraceElement[] frames,
                      Throwable[] suppressed, Throwable owner) {

    /**
     * The state of {@code t} now. Its message is the one it was made with; a JDK exception made without one may
     * compute one when asked — a {@code NullPointerException}'s helpful message, from the bytecode that threw it,
     * which no other node could compute — and then that is its message.
     */
    static ThrowableState of(Throwable t) {
        Throwable cause = ThrowableFields.rawCause(t);
        boolean set = cause != t;
        String message = ThrowableFields.message(t);
        if (message == null && !(t instanceof SharedObject)) {
            message = t.getMessage();
        }
        return new ThrowableState(message, set, set ? cause : null, t.getStackTrace(), t.getSuppressed(), t);
    }

    /** Makes this {@code t}'s state. */
    void writeInto(Throwable t) {
        ThrowableFields.write(t, message, causeSet ? cause : t, frames.clone(), List.of(suppressed));
    }

    /** This state with {@code text} as its message. */
    ThrowableState withMessage(String text) {
        return new ThrowableState(text, causeSet, cause, frames, suppressed, owner);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ThrowableState s)) {
            return false;
        }
        if (causeSet != s.causeSet || cause != s.cause || !Objects.equals(message, s.message)
                || !Arrays.equals(frames, s.frames) || suppressed.length != s.suppressed.length) {
            return false;
        }
        for (int i = 0; i < suppressed.length; i++) {
            if (suppressed[i] != s.suppressed[i]) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        return Objects.hash(message, causeSet, System.identityHashCode(cause), Arrays.hashCode(frames));
    }

    @Override
    public String toString() {
        return "ThrowableState[" + message + ", " + frames.length + " frames, cause " + cause + ", "
            + suppressed.length + " suppressed]";
    }
}
