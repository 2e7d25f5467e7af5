package dev.cumulus.internal.pastset;

/**
 * One tuple as a home node keeps it: a snapshot, so later changes to the mover's arrays never show. Tuples whose
 * fields are all immutable scalars (boxes, strings, enums, null) or arrays of primitives or strings are kept as
 * values ({@code values}, arrays copied on the way in and on the way out: the local fast path never runs the codec);
 * every other tuple is kept encoded ({@code bytes}), exactly as it travels.
 */
record StoredTuple(Object[] values, byte[] bytes) {

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

    /** The kept values, copied again for a reader (null when the tuple is kept encoded). */
    Object[] valuesCopy() {
        return values == null ? null : snapshot(values);
    }
}
