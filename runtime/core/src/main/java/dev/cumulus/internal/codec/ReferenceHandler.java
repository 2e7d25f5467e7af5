package dev.cumulus.internal.codec;

/**
 * Decides which values travel by reference (remote-object proxies, exported objects) instead of by value. The codec
 * asks {@link #toRef(Object)} before applying any other rule to a non-null value — except a message's one simple
 * value (a boxed number or boolean, a {@code byte[]}: {@link SoleValues}), which cannot stand for an object — and
 * hands every reference it decodes to {@link #fromRef(RemoteRef)}. Implementations must be thread-safe; the codec calls them from any thread.
 */
public interface ReferenceHandler {

    /** No value is by-reference; decoding a reference fails with a {@link CodecException}. */
    ReferenceHandler NONE = new ReferenceHandler() {
        @Override
        public RemoteRef toRef(Object value) {
            return null;
        }

        @Override
        public Object fromRef(RemoteRef ref) {
            throw new CodecException("received a remote reference " + ref + " but this codec has no reference handler");
        }

        @Override
        public String toString() {
            return "ReferenceHandler.NONE";
        }
    };

    /**
     * @param value a non-null value about to be encoded
     * @return the reference to send instead of the value, or {@code null} to encode the value by value
     */
    RemoteRef toRef(Object value);

    /**
     * @param ref a reference read from the wire (untrusted: check that the node and object exist)
     * @return the local stand-in (usually a proxy) for the referenced object
     */
    Object fromRef(RemoteRef ref);
}
