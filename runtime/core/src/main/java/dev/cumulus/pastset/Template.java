package dev.cumulus.pastset;

import dev.cumulus.CumulusException;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * An ordered set of types, with an optional leading tag: the shape of the tuples of one {@link Element}. Tuples whose
 * templates are identical (same tag, same types in the same order) belong to the same element; the tag separates
 * elements whose types happen to be the same ({@code Template.of("row", int.class)} and
 * {@code Template.of("column", int.class)} are different elements).
 *
 * <p>A field matches a primitive type when it is that primitive's box (never {@code null}); it matches a reference
 * type when it is {@code null} or an instance of it. Values still have to be transferable (records, arrays, strings,
 * collections, {@code @Transferable} classes) because tuples are kept by value.
 *
 * <p>Immutable; equal templates are {@link #equals equal}.
 */
public final class Template {
    private static final Map<Class<?>, Class<?>> BOXES = Map.of(int.class, Integer.class, long.class, Long.class,
        double.class, Double.class, float.class, Float.class, short.class, Short.class, byte.class, Byte.class,
        char.class, Character.class, boolean.class, Boolean.class);

    private final String tag;
    private final Class<?>[] types;
    private final String key;

    private Template(String tag, Class<?>[] types) {
        this.tag = tag == null ? "" : tag;
        this.types = types.clone();
        for (int i = 0; i < this.types.length; i++) {
            if (this.types[i] == null) {
                throw new CumulusException("type " + (i + 1) + " of template '" + this.tag + "' is null");
            }
            if (this.types[i] == void.class) {
                throw new CumulusException("type " + (i + 1) + " of template '" + this.tag + "' is void");
            }
        }
        StringJoiner j = new StringJoiner(",", this.tag + "(", ")");
        for (Class<?> t : this.types) {
            j.add(t.getTypeName());
        }
        this.key = j.toString();
    }

    /** A tagged template: {@code Template.of("row", int.class, double[].class)}. */
    public static Template of(String tag, Class<?>... types) {
        return new Template(tag, types);
    }

    /** An untagged template: {@code Template.of(int.class, double[].class)}. */
    public static Template of(Class<?>... types) {
        return new Template("", types);
    }

    /** The tag ({@code ""} when there is none). */
    public String tag() {
        return tag;
    }

    /** The field types, in order. */
    public List<Class<?>> types() {
        return List.of(types);
    }

    /** Number of fields of a tuple of this template. */
    public int arity() {
        return types.length;
    }

    /** The template's name, e.g. {@code row(int,double[])}: what identifies its element and names it in messages. */
    public String key() {
        return key;
    }

    /** Whether {@code fields} match this template (count and types). */
    public boolean matches(Object... fields) {
        return mismatch(fields) == null;
    }

    /**
     * Checks {@code fields} against this template.
     *
     * @throws CumulusException naming the expected and the actual types when they do not match
     */
    public void check(Object... fields) {
        String why = mismatch(fields);
        if (why != null) {
            throw new CumulusException("tuple " + describe(fields) + " does not match template " + key + ": " + why
                + "; move a tuple of exactly these types, or enter the element of a template that fits it");
        }
    }

    private String mismatch(Object[] fields) {
        if (fields == null) {
            return "the tuple is null";
        }
        if (fields.length != types.length) {
            return "expected " + types.length + " field" + (types.length == 1 ? "" : "s") + " (" + typeList()
                + ") but got " + fields.length;
        }
        for (int i = 0; i < types.length; i++) {
            Class<?> expected = types[i];
            Object v = fields[i];
            if (v == null) {
                if (expected.isPrimitive()) {
                    return "field " + (i + 1) + " must be " + expected.getTypeName() + " but was null";
                }
                continue;
            }
            Class<?> wanted = expected.isPrimitive() ? BOXES.get(expected) : expected;
            if (!wanted.isInstance(v)) {
                return "field " + (i + 1) + " must be " + expected.getTypeName() + " but was "
                    + v.getClass().getTypeName();
            }
        }
        return null;
    }

    private String typeList() {
        StringJoiner j = new StringJoiner(", ");
        for (Class<?> t : types) {
            j.add(t.getTypeName());
        }
        return j.toString();
    }

    /** The runtime types of {@code fields}, e.g. {@code (Integer, int[])}. */
    static String describe(Object[] fields) {
        if (fields == null) {
            return "null";
        }
        StringJoiner j = new StringJoiner(", ", "(", ")");
        for (Object f : fields) {
            j.add(f == null ? "null" : f.getClass().getSimpleName());
        }
        return j.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Template t && t.key.equals(key) && Arrays.equals(t.types, types);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    @Override
    public String toString() {
        return key;
    }
}
