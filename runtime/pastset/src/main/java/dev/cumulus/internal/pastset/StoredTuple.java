package dev.cumulus.internal.pastset;

import dev.cumulus.internal.codec.BytesView;

import java.util.Arrays;

/**
 * One tuple as a home node keeps it: a snapshot, so later changes to the mover's arrays never show. Tuples whose
 * fields are all immutable scalars (boxes, strings, enums, null) or arrays of primitives or strings are kept as
 * values ({@code values}, arrays copied on the way in and on the way out: the local fast path never runs the codec);
 * every other tuple is kept encoded ({@code length} bytes of {@code bytes} from {@code offset}), exactly as it travels.
 * A tuple a remote move brought is kept in the array its call message was copied into when the tuple is most of it,
 * so it is copied once on its way from the transport into the log.
 */
record StoredTuple(Object[] values, byte[] bytes, int offset, int length) {

    /** A tuple kept as values (see {@link #snapshot}). */
    static StoredTuple ofValues(Object[] values) {
        return new StoredTuple(values, null, 0, 0);
    }

    /** A tuple kept as the whole of {@code encoded}, which nothing else holds. */
    static StoredTuple ofBytes(byte[] encoded) {
        return new StoredTuple(null, encoded, 0, encoded.length);
    }

    /**
     * A tuple kept as the bytes {@code view} shows, in the view's own array when the tuple is at least
     * {@code SHARE_RATIO} times the rest of it (a call message nothing else holds: the rest is the call's other
     * arguments), else in a copy of its own (a small tuple does not keep its whole message alive).
     */
    static StoredTuple ofView(BytesView view) {
        byte[] array = view.array();
        int rest = array.length - view.length();
        if ((long) view.length() >= (long) SHARE_RATIO * rest) {
            return new StoredTuple(null, array, view.offset(), view.length());
        }
        return ofBytes(Arrays.copyOfRange(array, view.offset(), view.offset() + view.length()));
    }

    /** See {@link #ofView}. */
    static final int SHARE_RATIO = 8;

    /** A copy of {@code fields} that shares nothing mutable with them, or null when a field needs the codec. */
    static Object[] snapshot(Object[] fields) {
        Object[] copy = new Object[fields.length];
        for (int i = 0; i < fields.length; i++) {
            Object f = fields[i];
            if (f == null || f instanceof String || f instanceof Integer || f instanceof Long || f instanceof Double
                || f instanceof Float || f instanceof Short || f instanceof Byte || f instanceof Character
                || f instanceof Boolean || f instanceof Enum<?>) {
                copy[i] = f;
            } else {
                Object a = copyArray(f);
                if (a == null) {
                    return null;
                }
                copy[i] = a;
            }
        }
        return copy;
    }

    private static Object copyArray(Object f) {
        return switch (f) {
            case double[] a -> a.clone();
            case int[] a -> a.clone();
            case long[] a -> a.clone();
            case byte[] a -> a.clone();
            case float[] a -> a.clone();
            case short[] a -> a.clone();
            case char[] a -> a.clone();
            case boolean[] a -> a.clone();
            case String[] a when a.getClass() == String[].class -> a.clone();
            default -> null;
        };
    }

    /**
     * An upper bound of the bytes {@code values} (a {@link #snapshot}) encode to: their data (a string's character at
     * most 3 bytes, an enum constant by its class's and its own name) and a generous 16 bytes per value for tags and
     * lengths. Tells a tuple that surely fits a message from one that must be encoded to know.
     */
    static long encodedBytesBound(Object[] values) {
        long bytes = 16;
        for (Object v : values) {
            bytes += 16 + switch (v) {
                case String s -> 3L * s.length();
                case Enum<?> e -> 3L * (e.getDeclaringClass().getName().length() + e.name().length());
                case double[] a -> 8L * a.length;
                case long[] a -> 8L * a.length;
                case int[] a -> 4L * a.length;
                case float[] a -> 4L * a.length;
                case char[] a -> 2L * a.length;
                case short[] a -> 2L * a.length;
                case byte[] a -> a.length;
                case boolean[] a -> a.length;
                case String[] a -> {
                    long strings = 0;
                    for (String s : a) {
                        strings += 16 + (s == null ? 0 : 3L * s.length());
                    }
                    yield strings;
                }
                case null, default -> 0L; // a scalar: within its 16
            };
        }
        return bytes;
    }

    /** The kept values, copied again for a reader (null when the tuple is kept encoded). */
    Object[] valuesCopy() {
        return values == null ? null : snapshot(values);
    }
}
