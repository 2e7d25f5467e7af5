package dev.cumulus;

/** A remote call got no answer within its timeout. */
public class RemoteTimeoutException extends CumulusException {
    private static final long serialVersionUID = 1L;

    public RemoteTimeoutException(String message) {
        super(message);
    }
}
