package dev.cumulus;

/**
 * A value cannot be passed by value between nodes. Transferable are primitives and their boxes, strings, arrays,
 * records, enums, the JDK's common collections of those, remote-object proxies and classes annotated
 * {@link Transferable}. The message names the offending type.
 */
public class NotTransferableException extends CumulusException {
    private static final long serialVersionUID = 1L;

    public NotTransferableException(String message) {
        super(message);
    }
}
