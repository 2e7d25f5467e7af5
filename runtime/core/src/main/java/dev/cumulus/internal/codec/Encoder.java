package dev.cumulus.internal.codec;

import dev.cumulus.NotTransferableException;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.UUID;
import java.util.function.Supplier;
import org.agrona.MutableDirectBuffer;

/**
 * One encoding session: writes one message (a value, an argument list or a throwable) into a buffer. Holds the
 * message's handle table (shared arrays, objects and mutable collections) and class table. Not thread-safe; the
 * codec creates one per message.
 */
final class Encoder {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;

    private final ReferenceHandler references;
    private final CodecLimits limits;
    private final MutableDirectBuffer buffer;
    private final int start;
    private int position;
    private int depth;
    private static final int INLINE_HANDLES = 8;
    /** The first objects this message wrote, by handle; then {@link #handles} takes over. */
    private Object[] firstObjects;
    /** Handle 0 until a second object comes ({@link #firstObjects} then holds it too). */
    private Object firstObject;
    private int firstCount;
    private IdentityHashMap<Object, Integer> handles;
    private IdentityHashMap<Class<?>, Integer> classes;
    private HashMap<String, Integer> strings;

    Encoder(ReferenceHandler references, CodecLimits limits, MutableDirectBuffer buffer, int offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative: " + offset);
        }
        this.references = references;
        this.limits = limits;
        this.buffer = buffer;
        this.start = offset;
        this.position = offset;
    }

    int position() {
        return position;
    }

    /**
     * Writes a value; a refused value surfaces as {@link NotTransferableException} naming {@code context} (asked for
     * only then: building it on every call costs more than encoding a small value).
     */
    void writeTop(Object value, Supplier<String> context) {
        try {
            writeValue(value);
        } catch (Refusal refusal) {
            throw refusal.toException(context.get());
        } catch (StackOverflowError e) {
            throw new NotTransferableException(context.get() + " is not transferable: it is nested too deeply for this"
                + " thread's stack; flatten the structure");
        }
        long bytes = (long) position - start;
        if (bytes > limits.maxMessageBytes()) {
            throw new NotTransferableException(context.get() + " is not transferable: it encodes to " + bytes
                + " bytes, more than CodecLimits.maxMessageBytes (" + limits.maxMessageBytes()
                + "); send it in parts (the limit is fixed)");
        }
    }

    void putInt(int value) {
        buffer.putInt(position, value, LE);
        position += 4;
    }

    // ------------------------------------------------------------------------------------------------------ values

    void writeValue(Object value) {
        if (value == null) {
            putByte(Tags.NULL);
            return;
        }
        if (value instanceof PreEncodedBytes bytes) {
            writePreEncoded(bytes);
            return;
        }
        if (references != ReferenceHandler.NONE) {
            RemoteRef ref = references.toRef(value);
            if (ref != null) {
                putByte(Tags.REMOTE_REF);
                putInt(ref.nodeId());
                putLong(ref.objectId());
                putRawString(ref.interfaceName(), "remote reference");
                return;
            }
        }
        TypeInfo info = TypeInfo.of(value.getClass());
        switch (info.kind) {
            case BOOLEAN -> {
                putByte(Tags.BOOLEAN);
                putByte((Boolean) value ? 1 : 0);
            }
            case BYTE -> {
                putByte(Tags.BYTE);
                putByte((Byte) value);
            }
            case SHORT -> {
                putByte(Tags.SHORT);
                putShort((Short) value);
            }
            case CHAR -> {
                putByte(Tags.CHAR);
                putChar((Character) value);
            }
            case INT -> {
                putByte(Tags.INT);
                putInt((Integer) value);
            }
            case LONG -> {
                putByte(Tags.LONG);
                putLong((Long) value);
            }
            case FLOAT -> {
                putByte(Tags.FLOAT);
                putFloat((Float) value);
            }
            case DOUBLE -> {
                putByte(Tags.DOUBLE);
                putDouble((Double) value);
            }
            case STRING -> {
                putByte(Tags.STRING);
                putRawString((String) value, "java.lang.String");
            }
            case ENUM -> {
                putByte(Tags.ENUM);
                putClass(info.type);
                putRawString(((Enum<?>) value).name(), info.type.getName());
            }
            case RECORD -> writeFields(value, info, false);
            case OBJECT -> writeFields(value, info, true);
            case PRIMITIVE_ARRAY -> writePrimitiveArray(value, info);
            case OBJECT_ARRAY -> writeObjectArray((Object[]) value);
            case SORTED_SET, SORTED_MAP -> {
                Object comparator = value instanceof SortedSet<?> set ? set.comparator()
                    : ((SortedMap<?, ?>) value).comparator();
                if (comparator != null) {
                    throw new Refusal(info.type.getName() + " with a comparator", "only natural ordering can be"
                        + " transferred; copy it into a list, or give the elements a natural order (Comparable)");
                }
                if (!backReference(value)) {
                    writeContainer(info, value);
                }
            }
            case COLLECTION, FIXED_SIZE_LIST, MAP -> {
                if (!backReference(value)) {
                    writeContainer(info, value);
                }
            }
            case IMMUTABLE_COLLECTION, IMMUTABLE_MAP -> writeContainer(info, value);
            case OPTIONAL -> writeOptional((Optional<?>) value);
            case INSTANT -> {
                Instant instant = (Instant) value;
                putByte(Tags.INSTANT);
                putLong(instant.getEpochSecond());
                putInt(instant.getNano());
            }
            case DURATION -> {
                Duration duration = (Duration) value;
                putByte(Tags.DURATION);
                putLong(duration.getSeconds());
                putInt(duration.getNano());
            }
            case LOCAL_DATE -> {
                LocalDate date = (LocalDate) value;
                putByte(Tags.LOCAL_DATE);
                putInt(date.getYear());
                putByte(date.getMonthValue());
                putByte(date.getDayOfMonth());
            }
            case BIG_INTEGER -> {
                putByte(Tags.BIG_INTEGER);
                putMagnitude((BigInteger) value);
            }
            case BIG_DECIMAL -> {
                BigDecimal decimal = (BigDecimal) value;
                putByte(Tags.BIG_DECIMAL);
                putMagnitude(decimal.unscaledValue());
                putInt(decimal.scale());
            }
            case UUID -> {
                UUID uuid = (UUID) value;
                putByte(Tags.UUID);
                putLong(uuid.getMostSignificantBits());
                putLong(uuid.getLeastSignificantBits());
            }
            case REFUSED -> throw new Refusal(info.type.getTypeName(), info.refusal);
        }
    }

    /** Writes a REF if the value was already written in this message; otherwise assigns it the next handle. */
    private boolean backReference(Object value) {
        int handle = handleOf(value);
        if (handle < 0) {
            return false;
        }
        putByte(Tags.REF);
        putInt(handle);
        return true;
    }

    /**
     * The handle of {@code value} if this message wrote it already; else gives it the next handle and returns -1.
     * The first {@link #INLINE_HANDLES} objects are looked up in a small array (most calls write one or two), the
     * rest in an identity map.
     */
    private int handleOf(Object value) {
        if (firstCount == 0) { // the first object: most messages write one, and need no array for it
            firstObject = value;
            firstCount = 1;
            return -1;
        }
        if (handles == null) {
            if (firstObjects == null) {
                firstObjects = new Object[INLINE_HANDLES];
                firstObjects[0] = firstObject;
            }
            for (int i = 0; i < firstCount; i++) {
                if (firstObjects[i] == value) {
                    return i;
                }
            }
            if (firstCount < INLINE_HANDLES) {
                firstObjects[firstCount++] = value;
                return -1;
            }
            handles = new IdentityHashMap<>();
            for (int i = 0; i < firstCount; i++) {
                handles.put(firstObjects[i], i);
            }
        }
        Integer handle = handles.putIfAbsent(value, handles.size());
        return handle == null ? -1 : handle;
    }

    private void enter(Object value) {
        if (++depth > limits.maxDepth()) {
            throw new Refusal(value.getClass().getTypeName(), "it is nested more than CodecLimits.maxDepth ("
                + limits.maxDepth() + ") levels deep; flatten the structure (the limit is fixed)");
        }
    }

    private void exit() {
        depth--;
    }

    private void checkCount(int count, Object value) {
        if (count > limits.maxElements()) {
            throw new Refusal(value.getClass().getTypeName(), "it has " + count
                + " elements, more than CodecLimits.maxElements (" + limits.maxElements()
                + "); send it in parts (the limit is fixed)");
        }
    }

    private void writeFields(Object value, TypeInfo info, boolean shared) {
        if (shared && backReference(value)) {
            return;
        }
        putByte(info.tag);
        putClass(info.type);
        enter(value);
        try {
            for (TypeInfo.Slot slot : info.slots) {
                Field field = slot.field();
                switch (slot.code()) {
                    case 'Z' -> putByte(field.getBoolean(value) ? 1 : 0);
                    case 'B' -> putByte(field.getByte(value));
                    case 'S' -> putShort(field.getShort(value));
                    case 'C' -> putChar(field.getChar(value));
                    case 'I' -> putInt(field.getInt(value));
                    case 'J' -> putLong(field.getLong(value));
                    case 'F' -> putFloat(field.getFloat(value));
                    case 'D' -> putDouble(field.getDouble(value));
                    default -> {
                        Object fieldValue = field.get(value);
                        try {
                            writeValue(fieldValue);
                        } catch (Refusal refusal) {
                            throw refusal.at(slot.label());
                        }
                    }
                }
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("field made accessible became inaccessible: " + e, e);
        }
        exit();
    }

    private void writePrimitiveArray(Object array, TypeInfo info) {
        if (backReference(array)) {
            return;
        }
        int length = Array.getLength(array);
        int bytes = reserve((long) length << info.shift, info.type);
        putByte(info.tag);
        putInt(length);
        if (Bulk.NATIVE_LITTLE_ENDIAN) {
            Bulk.put(buffer, position, array, info.baseOffset, bytes);
            position += bytes;
            return;
        }
        for (int i = 0; i < length; i++) {
            switch (array) {
                case boolean[] a -> putByte(a[i] ? 1 : 0);
                case byte[] a -> putByte(a[i]);
                case short[] a -> putShort(a[i]);
                case char[] a -> putChar(a[i]);
                case int[] a -> putInt(a[i]);
                case long[] a -> putLong(a[i]);
                case float[] a -> putFloat(a[i]);
                case double[] a -> putDouble(a[i]);
                default -> throw new IllegalStateException("not a primitive array: " + array.getClass());
            }
        }
    }

    private void writeObjectArray(Object[] array) {
        if (backReference(array)) {
            return;
        }
        checkCount(array.length, array);
        putByte(Tags.OBJECT_ARRAY);
        putClass(array.getClass().getComponentType());
        putInt(array.length);
        enter(array);
        for (int i = 0; i < array.length; i++) {
            try {
                writeValue(array[i]);
            } catch (Refusal refusal) {
                throw refusal.at("element " + i);
            }
        }
        exit();
    }

    /** Writes a collection or map (tag, count, its elements or entries); not its handle. */
    private void writeContainer(TypeInfo info, Object container) {
        Map<?, ?> map = container instanceof Map<?, ?> m ? m : null;
        checkCount(map != null ? map.size() : ((Collection<?>) container).size(), container);
        putByte(info.tag);
        int countAt = position;
        putInt(0);
        enter(container);
        int count = map != null ? writeEntries(map) : writeElements((Collection<?>) container);
        exit();
        checkCount(count, container);
        buffer.putInt(countAt, count, LE);
    }

    /** @return how many elements it wrote */
    private int writeElements(Collection<?> collection) {
        int count = 0;
        for (Object element : collection) {
            try {
                writeValue(element);
            } catch (Refusal refusal) {
                throw refusal.at("element " + count);
            }
            count++;
        }
        return count;
    }

    /** @return how many entries it wrote */
    private int writeEntries(Map<?, ?> map) {
        int count = 0;
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            try {
                writeValue(entry.getKey());
            } catch (Refusal refusal) {
                throw refusal.at("key of entry " + count);
            }
            try {
                writeValue(entry.getValue());
            } catch (Refusal refusal) {
                throw refusal.at("value of entry " + count + describeKey(entry.getKey()));
            }
            count++;
        }
        return count;
    }

    private static String describeKey(Object key) {
        return switch (key) {
            case String s when s.length() <= 40 -> " (key \"" + s + "\")";
            case Number n -> " (key " + n + ")";
            case Enum<?> e -> " (key " + e.name() + ")";
            case null, default -> "";
        };
    }

    private void writeOptional(Optional<?> optional) {
        if (optional.isEmpty()) {
            putByte(Tags.OPTIONAL_EMPTY);
            return;
        }
        putByte(Tags.OPTIONAL);
        enter(optional);
        try {
            writeValue(optional.get());
        } catch (Refusal refusal) {
            throw refusal.at("Optional value");
        }
        exit();
    }

    private void putMagnitude(BigInteger value) {
        byte[] bytes = value.toByteArray();
        reserve(bytes.length, BigInteger.class);
        putInt(bytes.length);
        buffer.putBytes(position, bytes);
        position += bytes.length;
    }

    // ---------------------------------------------------------------------------------------------- class table

    private void putClass(Class<?> type) {
        if (classes == null) {
            classes = new IdentityHashMap<>();
        }
        Integer index = classes.putIfAbsent(type, classes.size());
        if (index != null) {
            putInt(index);
            return;
        }
        putInt(Tags.NEW_CLASS);
        putRawString(type.getName(), "class name");
        putInt(TypeInfo.of(type).fingerprint);
    }

    // ----------------------------------------------------------------------------------------------- throwables

    /** Writes a throwable: its cause chain (bounded), each with class name, message and stack trace. */
    void writeThrowable(Throwable throwable) {
        List<Throwable> chain = new ArrayList<>();
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = throwable; t != null && chain.size() < limits.maxCauseDepth() && seen.add(t);
             t = t.getCause()) {
            chain.add(t);
        }
        putInt(chain.size());
        for (Throwable t : chain) {
            putTableString(t instanceof RemoteThrowable remote ? remote.remoteClassName() : t.getClass().getName());
            String message;
            try {
                message = t.getMessage();
            } catch (RuntimeException e) {
                message = "(getMessage() threw " + e + ")";
            }
            if (message != null && message.length() > limits.maxStringChars()) {
                message = cut(message, limits.maxStringChars());
            }
            putRawString(message, "exception message");
            StackTraceElement[] frames = t.getStackTrace();
            int count = Math.min(frames.length, limits.maxStackFrames());
            putInt(count);
            for (int i = 0; i < count; i++) {
                StackTraceElement frame = frames[i];
                putTableString(frame.getClassLoaderName());
                putTableString(frame.getModuleName());
                putTableString(frame.getModuleVersion());
                putTableString(frame.getClassName());
                putTableString(frame.getMethodName());
                putTableString(frame.getFileName());
                putInt(frame.getLineNumber());
            }
        }
    }

    private void putTableString(String value) {
        if (value == null) {
            putInt(Tags.NULL_STRING);
            return;
        }
        if (value.length() > limits.maxClassNameLength()) {
            value = value.substring(0, limits.maxClassNameLength());
        }
        if (strings == null) {
            strings = new HashMap<>();
        }
        Integer index = strings.putIfAbsent(value, strings.size());
        if (index != null) {
            putInt(index);
            return;
        }
        putInt(Tags.NEW_STRING);
        putRawString(value, "string");
    }

    // ---------------------------------------------------------------------------------------------- primitives

    /**
     * Written as the {@code byte[]} it stands for: tag, length, the bytes. It takes a handle like any array (the
     * reader registers the {@code byte[]} it decodes), so later back-references in the message keep their numbers.
     */
    private void writePreEncoded(PreEncodedBytes value) {
        if (backReference(value)) {
            return;
        }
        int length = reserve(value.byteLength(), byte[].class);
        putByte(Tags.BYTE_ARRAY);
        putInt(length);
        buffer.checkLimit(position + length); // grows an expandable buffer
        value.writeTo(buffer, position);
        position += length;
    }

    /** Checks that {@code bytes} more keep the message within {@link CodecLimits#maxMessageBytes()}. */
    private int reserve(long bytes, Class<?> type) {
        long total = (long) position - start + bytes;
        if (total > limits.maxMessageBytes()) {
            throw new Refusal(type.getTypeName(), "the message would exceed CodecLimits.maxMessageBytes ("
                + limits.maxMessageBytes() + " bytes); send it in parts (the limit is fixed)");
        }
        return (int) bytes;
    }

    private void putRawString(String value, String what) {
        if (value == null) {
            putByte(Tags.CODER_NULL);
            return;
        }
        int length = value.length();
        if (length > limits.maxStringChars()) {
            throw new Refusal("java.lang.String", "the " + what + " has " + length
                + " chars, more than CodecLimits.maxStringChars (" + limits.maxStringChars() + ")");
        }
        boolean latin1 = true;
        for (int i = 0; i < length; i++) {
            if (value.charAt(i) > 0xFF) {
                latin1 = false;
                break;
            }
        }
        if (latin1) {
            reserve(length + 5L, String.class);
            putByte(Tags.CODER_LATIN1);
            putInt(length);
            if (length < 32) {
                for (int i = 0; i < length; i++) {
                    buffer.putByte(position + i, (byte) value.charAt(i));
                }
            } else {
                buffer.putBytes(position, value.getBytes(StandardCharsets.ISO_8859_1));
            }
            position += length;
        } else {
            reserve(2L * length + 5, String.class);
            putByte(Tags.CODER_UTF16);
            putInt(length);
            for (int i = 0; i < length; i++) {
                buffer.putChar(position + 2 * i, value.charAt(i), LE);
            }
            position += 2 * length;
        }
    }

    private void putByte(int value) {
        buffer.putByte(position++, (byte) value);
    }

    private void putShort(short value) {
        buffer.putShort(position, value, LE);
        position += 2;
    }

    private void putChar(char value) {
        buffer.putChar(position, value, LE);
        position += 2;
    }

    private void putLong(long value) {
        buffer.putLong(position, value, LE);
        position += 8;
    }

    private void putFloat(float value) {
        buffer.putFloat(position, value, LE);
        position += 4;
    }

    private void putDouble(double value) {
        buffer.putDouble(position, value, LE);
        position += 8;
    }

    // ------------------------------------------------------------------------------------------------- refusal

    /**
     * A value that may not be transferred, on its way out of the recursion. Each level adds its path segment, so the
     * happy path pays nothing for path tracking. No stack trace: it never escapes the encoder.
     */
    static final class Refusal extends RuntimeException {
        private static final long serialVersionUID = 1L;

        private final String typeName;
        private final String reason;
        private final ArrayDeque<String> path = new ArrayDeque<>();

        Refusal(String typeName, String reason) {
            super(typeName, null, false, false);
            this.typeName = typeName;
            this.reason = reason;
        }

        Refusal at(String segment) {
            path.addFirst(segment);
            return this;
        }

        NotTransferableException toException(String context) {
            StringBuilder message = new StringBuilder(context);
            for (String segment : path) {
                message.append(" -> ").append(segment);
            }
            message.append(" -> ").append(typeName).append(" is not transferable: ").append(reason);
            return new NotTransferableException(message.toString());
        }
    }

    /**
     * An exception message longer than one string may be, cut to {@code max} chars with a note saying it was cut and
     * how long it was (as much of the note as fits).
     */
    static String cut(String message, int max) {
        String note = "... (cut: the message had " + message.length() + " chars, more than a message carries)";
        if (note.length() >= max) {
            return note.substring(0, max);
        }
        return message.substring(0, max - note.length()) + note;
    }
}
