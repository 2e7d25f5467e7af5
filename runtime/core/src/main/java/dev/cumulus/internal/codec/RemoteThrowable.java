package dev.cumulus.internal.codec;

import java.util.Objects;

/**
 * Stands in for a remote exception that is not re-created locally: carries the remote class name, message and stack
 * trace, and prints like the original ({@code com.example.Oops: message} followed by the remote frames). It is the
 * cause of the {@link dev.cumulus.RemoteCallException} a call reports in that case. Never thrown by itself.
 */
public final class RemoteThrowable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String remoteClassName;

    RemoteThrowable(String remoteClassName, String message, StackTraceElement[] remoteTrace, Throwable cause) {
        super(message, cause, false, true);
        this.remoteClassName = Objects.requireNonNull(remoteClassName);
        setStackTrace(remoteTrace);
    }

    /** @return the binary name of the exception's class on the remote node */
    public String remoteClassName() {
        return remoteClassName;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // the trace is the remote one, set in the constructor
    }

    @Override
    public String toString() {
        String message = getMessage();
        return message == null ? remoteClassName : remoteClassName + ": " + message;
    }
}
