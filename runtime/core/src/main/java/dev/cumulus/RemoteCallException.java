package dev.cumulus;

/**
 * A remote method threw a checked exception that the caller's interface method does not declare, or an exception
 * whose class cannot be re-created here. The remote exception (type, message, remote stack trace) is the cause.
 */
public class RemoteCallException extends CumulusException {
    private static final long serialVersionUID = 1L;

    public RemoteCallException(String message, Throwable cause) {
        super(message, cause);
    }
}
