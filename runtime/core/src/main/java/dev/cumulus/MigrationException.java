package dev.cumulus;

/**
 * A remote object could not migrate; the message says why (busy, a state that cannot be transferred, a target node
 * that does not exist or failed, an object that cannot move) and what would work. The object still serves calls
 * where it was.
 */
public class MigrationException extends CumulusException {
    private static final long serialVersionUID = 1L;

    public MigrationException(String message) {
        super(message);
    }

    public MigrationException(String message, Throwable cause) {
        super(message, cause);
    }
}
