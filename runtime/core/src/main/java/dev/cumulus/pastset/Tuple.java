package dev.cumulus.pastset;

import dev.cumulus.CumulusException;

import java.util.Arrays;
import java.util.List;

/**
 * One tuple read from an {@link Element}: its fields and its position ({@link #index()}) in the element's log.
 * A tuple is a copy: changing an array it holds changes nothing in the space.
 */
public final class Tuple {
    private final long index;
    private final Object[] fields;

    private Tuple(long index, Object[] fields) {
        this.index = index;
        this.fields = fields;
    }

    /** A tuple at {@code index} of some log; for {@link Semantics.Redefinition} code and tests. */
    public static Tuple of(long index, Object... fields) {
        return new Tuple(index, fields.clone());
    }

    /** Position of this tuple in its element's log (0 for the first tuple ever moved). */
    public long index() {
        return index;
    }

    /** Number of fields. */
    public int size() {
        return fields.length;
    }

    /** Field {@code i} (0-based); primitives come boxed. */
    public Object get(int i) {
        check(i);
        return fields[i];
    }

    /** Field {@code i} as a {@code type}. */
    public <T> T get(int i, Class<T> type) {
        Object v = get(i);
        if (v != null && !type.isInstance(v)) {
            throw new CumulusException("field " + i + " of tuple #" + index + " is a " + v.getClass().getTypeName()
                + ", not a " + type.getTypeName());
        }
        return type.cast(v);
    }

    public int getInt(int i) {
        return number(i).intValue();
    }

    public long getLong(int i) {
        return number(i).longValue();
    }

    public double getDouble(int i) {
        return number(i).doubleValue();
    }

    public String getString(int i) {
        return get(i, String.class);
    }

    public double[] getDoubles(int i) {
        return get(i, double[].class);
    }

    public int[] getInts(int i) {
        return get(i, int[].class);
    }

    public byte[] getBytes(int i) {
        return get(i, byte[].class);
    }

    /** The fields as an unmodifiable list (the values themselves are this tuple's copies). */
    public List<Object> fields() {
        return Arrays.asList(fields.clone());
    }

    private Number number(int i) {
        Object v = get(i);
        if (v instanceof Number n) {
            return n;
        }
        throw new CumulusException("field " + i + " of tuple #" + index + " is "
            + (v == null ? "null" : "a " + v.getClass().getTypeName()) + ", not a number");
    }

    private void check(int i) {
        if (i < 0 || i >= fields.length) {
            throw new CumulusException("tuple #" + index + " has " + fields.length + " fields (0.." + (fields.length - 1)
                + "); there is no field " + i);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Tuple t && t.index == index && Arrays.deepEquals(t.fields, fields);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(index) * 31 + Arrays.deepHashCode(fields);
    }

    @Override
    public String toString() {
        return "#" + index + Arrays.deepToString(fields);
    }
}
