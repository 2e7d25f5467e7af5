package dev.cumulus.internal.singlevm;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.CodecLimits;

import java.lang.reflect.Array;

/**
 * How one field or element value travels in an {@link ObjectImage}: primitives by their bits; shared objects (woven
 * program objects, arrays) as ids with their class; the JDK's immutable values (strings, boxed numbers, characters,
 * booleans, enum constants, classes) by value, a string arriving interned (so a literal read from another node's
 * field is still {@code ==} to the same literal, JLS 3.10.5, and one string in two fields is still one); exceptions in
 * the text form of {@link ThrowableText} (a JDK exception by value, a program exception as its id with the state
 * {@code Throwable} keeps), and a program exception's own {@link ThrowableState} entry the same way. Any other JDK
 * object is a node's own ({@link NodeLocalObject}), and so is an object of a program class that extends a JDK class
 * with state the heap does not carry ({@link ClassLayout#unsharedJdkState}): it is sent as a marker naming its class
 * and node; a node that decodes it stops the run with a message saying so ({@link LimitStop}), and a copy's fill
 * keeps that message for the read that meets the entry instead ({@link #foreign}); a string longer than one message
 * may carry ({@link #MAX_STRING_CHARS}) is such a marker too, always decoded. Stateless.
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
    /** An exception: {@link ThrowableText#value}. */
    static final byte THROWABLE = 9;
    /** A program exception's {@link ThrowableState}: {@link ThrowableText#state}. */
    static final byte THROWABLE_STATE = 10;
    /** An object of a program class extending a JDK class with state: its class and that JDK class. */
    static final byte JDK_SUBCLASS = 11;
    /** A string longer than a heap message may carry ({@link #MAX_STRING_CHARS}): its length and node. */
    static final byte LONG_STRING = 12;

    /** The longest string a heap message carries: the RPC codec's bound on one string. */
    static final int MAX_STRING_CHARS = CodecLimits.DEFAULTS.maxStringChars();

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
        } else if (value instanceof String s && s.length() > MAX_STRING_CHARS) {
            kind = LONG_STRING;
            bits = s.length();
            text = String.valueOf(space.nodeId());
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
        } else if (value instanceof SharedObject && ClassLayout.of(value.getClass()).unsharedJdkState != null) {
            kind = JDK_SUBCLASS;
            text = value.getClass().getName() + ' ' + ClassLayout.of(value.getClass()).unsharedJdkState.getName();
            bits = space.nodeId();
        } else if (value instanceof Throwable t) {
            kind = THROWABLE;
            text = ThrowableText.value(t, v -> space.idOf(v, publication));
        } else if (value instanceof ThrowableState s) {
            kind = THROWABLE_STATE;
            text = ThrowableText.state(s, v -> space.idOf(v, publication));
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
            case STRING -> text.intern();
            case BOXED -> box(text, bits);
            case CLASS -> space.loadClass(text);
            case ENUM -> enumConstant(space, text);
            case REF -> space.resolve(bits, text);
            case FOREIGN, JDK_SUBCLASS -> throw LimitStop.stop(space, foreign(space, image, i, where));
            case LONG_STRING -> throw LimitStop.stop(space, longString(where, bits, text, space.nodeId()));
            case THROWABLE -> exception(() -> ThrowableValues.value(space, text), where);
            case THROWABLE_STATE -> exception(() -> ThrowableValues.state(space, text), where);
            default -> throw new IllegalStateException("unknown value kind " + image.kinds()[i] + " in " + where);
        };
    }

    /**
     * What a read of entry {@code i} of {@code image} (the value of {@code where}) says when it holds an object this
     * node cannot use — a mutable JDK object or lambda another node made ({@link #FOREIGN}), or an object of a program
     * class extending a JDK class with state ({@link #JDK_SUBCLASS}) — the message {@link #decode} stops the run with;
     * {@code null} for any other entry. A copy's fill stores such an entry as {@code null} and fails only the read that
     * meets it (docs/design/SINGLEVM.md, "JDK objects").
     */
    static String foreign(ObjectSpace space, ObjectImage image, int i, String where) {
        return switch (image.kinds()[i]) {
            case FOREIGN -> NodeLocalObject.reached(where, image.texts()[i], image.bits()[i], space.nodeId());
            case JDK_SUBCLASS -> jdkSubclass(where, image.texts()[i], image.bits()[i]);
            default -> null;
        };
    }

    /** Whether entry {@code i} of {@code image} holds an object the receiving node cannot use ({@link #foreign}). */
    static boolean isForeign(ObjectImage image, int i) {
        byte kind = image.kinds()[i];
        return kind == FOREIGN || kind == JDK_SUBCLASS;
    }

    private static String jdkSubclass(String where, String text, long node) {
        int space = text.indexOf(' ');
        return where + " refers to a " + text.substring(0, space) + " created on node " + node
            + ", a program class extending " + text.substring(space + 1) + ": the state of a JDK superclass cannot be "
            + "shared between nodes in the single-VM mode (keep the JDK object in a field of a program class used only "
            + "on the node that created it, or use the shared collections of dev.cumulus.SingleVm or the program's own "
            + "classes)";
    }

    private static String longString(String where, long length, String node, int self) {
        return String.format(java.util.Locale.ROOT, "%s refers to a string of %,d chars created on node %s, which node %d cannot receive: "
            + "strings of more than %,d chars cannot move between nodes in the single-VM mode (keep such a string on "
            + "the node that created it, or share its text as a char[] or in parts)", where, length, node, self,
            MAX_STRING_CHARS);
    }

    /** An exception or exception state decoded by {@code decode}; a malformed one fails naming {@code where}. */
    private static Object exception(java.util.function.Supplier<Object> decode, String where) {
        try {
            return decode.get();
        } catch (IllegalArgumentException | CumulusException e) {
            throw new CumulusException(where + " holds an exception this node cannot rebuild: " + e.getMessage(), e);
        }
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
