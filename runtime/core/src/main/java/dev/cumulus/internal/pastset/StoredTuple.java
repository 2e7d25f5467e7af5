package dev.cumulus.internal.pastset;

/**
 * One tuple as a home node keeps it: a snapshot, so later changes to the mover's arrays never show. Tuples whose
 * fields are all immutable scalars (boxes, strings, enums, null) keep their values as they are ({@code values});
 * every other tuple is kept encoded ({@code bytes}), exactly as it travels.
 */
record StoredTuple(Object[] values, byte[] bytes) {

    static boolean immutable(Object[] fields) {
        for (Object f : fields) {
            if (f != null && !(f instanceof String || f instanceof Integer || f instanceof Long || f instanceof Double
                || f instanceof Float || f instanceof Short || f instanceof Byte || f instanceof Character
                || f instanceof Boolean || f instanceof Enum<?>)) {
                return false;
            }
        }
        return true;
    }

    /** Encoded size (an estimate of 8 bytes a field for kept values). */
    int sizeBytes() {
        return bytes != null ? bytes.length : values.length * 8;
    }
}
