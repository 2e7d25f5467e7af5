package dev.cumulus.internal.singlevm;

import java.lang.reflect.Array;

/**
 * How one field or element value travels in an {@link ObjectImage}: primitives by their bits; shared objects (woven
 * program objects, arrays) as ids with their class; the JDK's immutable values (strings, boxed numbers, characters,
 * booleans, enum constants, classes) by value. Any other JDK object is a node's own: it is sent as a marker naming it
 * ({@link NodeLocalObject}) and its node, and the node that receives it stops the run with a message saying so
 * ({@link LimitStop}). Stateless.
 */
final class ImageCodec {
    static final byte ABSENT = 0;
    static final byte PRIMITIVE = 1;
    static final byte NULL = 2;
    static final byte REF = 3;
    static final byte STRING = 4;
    static final byte BOXED = 5;
    static final byte FOREIGN = 6;
    static final byte CLASS = 7;
    static final byte ENUM = 8;

    private ImageCodec() {
    }

    /** Puts {@code value} (of a field or element declared {@code type}) into entry {@code i} of {@code image}. */
    static void encode(ObjectSpace space, ObjectImage image, int i, Class<?> type, Object value) {
        encode(space, null, image, i, type, value);
    }

    /**
     * As {@link #encode(ObjectSpace, ObjectImage, int, Class, Object)}, in a write-back that publishes to
     * {@code publication}'s home the node's objects that never left it ({@code null}: any other message).
     */
    static void encode(ObjectSpace space, Publication publication, ObjectImage image, int i, Class<?> type,
                       Object value) {
        byte kind;
        long bits = 0;
        String text = null;
        if (type.isPrimitive()) {
            kind = PRIMITIVE;
            bits = primitiveBits(value);
        } else if (value == null) {
            kind = NULL;
        } else if (value instanceof String s) {
            kind = STRING;
            text = s;
        } else if (value instanceof Class<?> c) {
            kind = CLASS;
            text = c.getName();
        } else if (value instanceof Enum<?> e && !(value instanceof SharedObject)) {
            kind = ENUM;
            text = e.getDeclaringClass().getName() + '#' + e.name();
        } else if (isBox(value)) {
            kind = BOXED;
            bits = primitiveBits(value);
            text = value.getClass().getName();
        } else if (value instanceof SharedObject || value.getClass().isArray() || value.getClass() == Object.class) {
            kind = REF;
            bits = space.idOf(value, publication);
            text = value.getClass().isArray() ? value.getClass().getName() + '/' + Array.getLength(value)
                : value.getClass().getName();
        } else {
            kind = FOREIGN;
            text = NodeLocalObject.describe(value);
            bits = space.nodeId();
        }
        image.kinds()[i] = kind;
        image.bits()[i] = bits;
        image.texts()[i] = text;
    }

    /** The value of entry {@code i} of {@code image} for a field or element declared {@code type}. */
    static Object decode(ObjectSpace space, ObjectImage image, int i, Class<?> type, String where) {
        long bits = image.bits()[i];
        String text = image.texts()[i];
        return switch (image.kinds()[i]) {
            case PRIMITIVE -> primitive(type, bits);
            case NULL -> null;
            case STRING -> text;
            case BOXED -> box(text, bits);
            case CLASS -> space.loadClass(text);
            case ENUM -> enumConstant(space, text);
            case REF -> space.resolve(bits, text);
            case FOREIGN -> throw LimitStop.stop(space, NodeLocalObject.reached(where, text, bits, space.nodeId()));
            default -> throw new IllegalStateException("unknown value kind " + image.kinds()[i] + " in " + where);
        };
    }

    private static boolean isBox(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof Double || v instanceof Float
            || v instanceof Short || v instanceof Byte || v instanceof Character || v instanceof Boolean;
    }

    private static long primitiveBits(Object v) {
        return switch (v) {
            case Integer x -> x;
            case Long x -> x;
            case Double x -> Double.doubleToRawLongBits(x);
            case Float x -> Float.floatToRawIntBits(x);
            case Short x -> x;
            case Byte x -> x;
            case Character x -> x;
            case Boolean x -> x ? 1 : 0;
            default -> throw new IllegalArgumentException("not a primitive value: " + v);
        };
    }

    private static Object primitive(Class<?> type, long bits) {
        if (type == int.class) {
            return (int) bits;
        } else if (type == long.class) {
            return bits;
        } else if (type == double.class) {
            return Double.longBitsToDouble(bits);
        } else if (type == float.class) {
            return Float.intBitsToFloat((int) bits);
        } else if (type == boolean.class) {
            return bits != 0;
        } else if (type == char.class) {
            return (char) bits;
        } else if (type == short.class) {
            return (short) bits;
        } else if (type == byte.class) {
            return (byte) bits;
        }
        throw new IllegalArgumentException("not a primitive type: " + type);
    }

    private static Object box(String boxClass, long bits) {
        return switch (boxClass) {
            case "java.lang.Integer" -> (int) bits;
            case "java.lang.Long" -> bits;
            case "java.lang.Double" -> Double.longBitsToDouble(bits);
            case "java.lang.Float" -> Float.intBitsToFloat((int) bits);
            case "java.lang.Short" -> (short) bits;
            case "java.lang.Byte" -> (byte) bits;
            case "java.lang.Character" -> (char) bits;
            case "java.lang.Boolean" -> bits != 0;
            default -> throw new IllegalArgumentException("not a box class: " + boxClass);
        };
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(ObjectSpace space, String text) {
        int hash = text.indexOf('#');
        Class enumClass = space.loadClass(text.substring(0, hash));
        return Enum.valueOf(enumClass, text.substring(hash + 1));
    }
}
