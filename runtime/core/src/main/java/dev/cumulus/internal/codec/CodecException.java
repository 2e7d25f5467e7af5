package dev.cumulus.internal.codec;

import dev.cumulus.CumulusException;

/**
 * The bytes being decoded are not a valid encoding: truncated, malformed, over a {@link CodecLimits} bound, or naming
 * a class that may not be decoded here. It is the only exception a {@link ValueReader} throws for bad input; the
 * message says what was wrong and where (byte position).
 */
public final class CodecException extends CumulusException {
    private static final long serialVersionUID = 1L;

    public CodecException(String message) {
        super(message);
    }

    public CodecException(String message, Throwable cause) {
        super(message, cause);
    }
}
