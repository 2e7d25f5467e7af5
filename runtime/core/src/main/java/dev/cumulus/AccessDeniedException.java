package dev.cumulus;

/**
 * A client of a standing cluster was refused: it called or looked up an object it has no grant for (objects belong to
 * the client that made them, and only their owner reaches them unless it granted others {@link Access}), used a
 * system service that is not for clients, or attached without a valid credential. The message names the object, the
 * method and the refused client; the server that refused logs it too.
 */
public class AccessDeniedException extends CumulusException {
    private static final long serialVersionUID = 1L;

    public AccessDeniedException(String message) {
        super(message);
    }
}
