package dev.cumulus.internal.singlevm;

/**
 * A program object's fields (or an array's elements, or a class's static fields) on the wire: what a home answers to a
 * fetch, and what a write-back carries (then only the written entries are present). Entry {@code i} is field {@code i}
 * of the class's {@code ClassLayout} or element {@code i}; {@code kinds[i]} says how {@code bits[i]} and
 * {@code texts[i]} hold its value ({@link ImageCodec}). Public only because RPC needs it; not user API.
 *
 * @param className the object's class ({@link Class#getName()}), or the class whose statics these are
 * @param kinds     per entry, one of {@link ImageCodec}'s kinds ({@code ABSENT} in a write-back: not written)
 * @param bits      per entry, a primitive's bits, a shared object's id, a boxed value's bits
 * @param texts     per entry, a string's value, a referenced object's class (arrays: {@code name/length}), or
 *                  {@code null}
 */
public record ObjectImage(String className, byte[] kinds, long[] bits, String[] texts) {
    /** An image of {@code length} absent entries. */
    static ObjectImage empty(String className, int length) {
        return new ObjectImage(className, new byte[length], new long[length], new String[length]);
    }

    int length() {
        return kinds.length;
    }
}
