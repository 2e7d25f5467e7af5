package dev.cumulus;

/**
 * The one exception family every Cumulus API call throws. The message says what went wrong and what to do.
 */
public class CumulusException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CumulusException(String message) {
        super(message);
    }

    public CumulusException(String message, Throwable cause) {
        super(message, cause);
    }
}
