package dev.cumulus.internal.codec;

import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.agrona.DirectBuffer;

/**
 * Decodes values from {@code length} bytes of a buffer, starting at an offset; obtained from
 * {@link ValueCodec#reader(DirectBuffer, int, int)}. Every length read is checked against the bytes that remain and
 * against the codec's {@link CodecLimits}; the work and heap the message costs are charged to its
 * {@link DecodeBudget} before they are spent (hashing and comparing set elements and map keys included:
 * {@link HashWork}); classes named on the wire must be on the codec's {@link TransferAllowList}, are resolved without
 * initialisation and accepted only if they are records, enums, {@code @dev.cumulus.Transferable} classes or built-in
 * kinds. Whatever the bytes, the only exception a read throws is {@link CodecException}.
 *
 * <p>One reader per message, where a message is what one {@code ValueCodec.write...} call produced: the reader keeps
 * the message's handle and class tables across {@link #read()} calls, so the arguments of one
 * {@link ValueCodec#writeArguments writeArguments} message can be read one by one and keep their sharing. Not
 * thread-safe; a reader belongs to one thread.
 */
public final class ValueReader {
    private static final ByteOrder LE = ByteOrder.LITTLE_ENDIAN;
    private static final int MAX_INITIAL_CAPACITY = 1 << 12;

    private final ValueCodec codec;
    private final CodecLimits limits;
    private final DirectBuffer buffer;
    private final int limit;
    private int position;
    private int depth;
    /** The objects this message defined, by handle: the first in {@link #firstHandle}, the rest here. */
    private ArrayList<Object> handles;
    /** Handle 0 (most messages define one object: no list for them); valid when {@link #handleCount} &gt; 0. */
    private Object firstHandle;
    private int handleCount;
    private ArrayList<Class<?>> classes;
    /** What this message may still cost to decode: work units and estimated heap. */
    private final DecodeBudget budget;
    /** The structural cost ({@link HashWork}) of the value the last {@link #readValue()} returned. */
    private long cost;
    /** The structural cost of each handle's object ({@link HashWork#UNKNOWN} while it is being decoded). */
    private long[] handleCosts = new long[4];

    ValueReader(ValueCodec codec, DirectBuffer buffer, int offset, int length) {
        this.codec = codec;
        this.limits = codec.limits();
        this.buffer = buffer;
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()) {
            throw new CodecException("cannot read " + length + " bytes at offset " + offset + " of a buffer of "
                + buffer.capacity() + " bytes");
        }
        if (length > limits.maxMessageBytes()) {
            throw new CodecException("message of " + length + " bytes exceeds CodecLimits.maxMessageBytes ("
                + limits.maxMessageBytes() + ")");
        }
        this.position = offset;
        this.limit = offset + length;
        this.budget = new DecodeBudget(limits);
    }

    /** Work units this reader spent so far ({@link CodecLimits#maxDecodeWork()}). */
    public long workSpent() {
        return budget.work();
    }

    /** Estimated heap bytes of what this reader decoded so far ({@link CodecLimits#maxDecodeHeapBytes()}). */
    public long heapBytesCharged() {
        return budget.heapBytes();
    }

    /** @return the offset of the next unread byte */
    public int position() {
        return position;
    }

    /** @return the number of unread bytes */
    public int remaining() {
        return limit - position;
    }

    /**
     * Reads one value written by {@link ValueCodec#write}.
     *
     * @throws CodecException if the bytes are not a valid encoding or break a limit
     */
    public Object read() {
        try {
            return readValue();
        } catch (RuntimeException | LinkageError | StackOverflowError | OutOfMemoryError e) {
            throw malformed(e);
        }
    }

    /**
     * Reads one argument of a method whose parameter is declared as {@code type}. A {@link BytesView} parameter takes a
     * {@code byte[]} value (or null) and gets a view of its bytes in this reader's buffer instead of a copy (a copy
     * only when the buffer is not backed by an array); anything else on the wire for it, including a back-reference,
     * is refused. Any other parameter type: {@link #read()}.
     *
     * @throws CodecException if the bytes are not a valid encoding or break a limit
     */
    public Object readArgument(Class<?> type) {
        if (type != BytesView.class) {
            return read();
        }
        try {
            return readBytesView();
        } catch (RuntimeException | OutOfMemoryError e) {
            throw malformed(e);
        }
    }

    /**
     * Reads an argument list written by {@link ValueCodec#writeArguments}; objects shared between arguments stay
     * shared.
     *
     * @param count the number of parameters of the method being called
     * @throws CodecException if the bytes are not a valid encoding, break a limit, hold fewer arguments or have bytes
     *                        left over
     */
    public Object[] readArguments(int count) {
        try {
            Object[] arguments = new Object[count];
            for (int i = 0; i < count; i++) {
                arguments[i] = readValue();
            }
            if (remaining() != 0) {
                throw bad(remaining() + " bytes left after " + count + " arguments");
            }
            return arguments;
        } catch (RuntimeException | LinkageError | StackOverflowError | OutOfMemoryError e) {
            throw malformed(e);
        }
    }

    /**
     * Reads a throwable written by {@link ValueCodec#writeThrowable} and turns it into a local one. The same exception
     * type is re-created (with the remote message and stack trace) only if it is an unchecked {@code java.*} exception
     * or error, a type assignable to one of {@code declaredExceptions}, or an application {@code RuntimeException};
     * and only through a public {@code (String)} constructor. Otherwise the result is a
     * {@link dev.cumulus.RemoteCallException} whose cause is a {@link RemoteThrowable} with the remote details.
     *
     * @param declaredExceptions the throws clause of the interface method that was called (may be empty)
     * @throws CodecException if the bytes are not a valid encoding or break a limit
     */
    public Throwable readThrowable(Class<?>[] declaredExceptions) {
        try {
            int count = getInt();
            if (count < 1 || count > limits.maxCauseDepth()) {
                throw bad("cause chain of " + count + " throwables (expected 1 to CodecLimits.maxCauseDepth = "
                    + limits.maxCauseDepth() + ")");
            }
            List<String> strings = new ArrayList<>();
            RemoteThrowables.Info[] chain = new RemoteThrowables.Info[count];
            for (int i = 0; i < count; i++) {
                String className = tableString(strings, false);
                String message = rawString(limits.maxStringChars());
                int frameCount = getInt();
                if (frameCount < 0 || frameCount > limits.maxStackFrames()) {
                    throw bad("stack trace of " + frameCount + " frames (limit CodecLimits.maxStackFrames = "
                        + limits.maxStackFrames() + ")");
                }
                need(28L * frameCount);
                StackTraceElement[] frames = new StackTraceElement[frameCount];
                for (int f = 0; f < frameCount; f++) {
                    String classLoaderName = tableString(strings, true);
                    String moduleName = tableString(strings, true);
                    String moduleVersion = tableString(strings, true);
                    String declaringClass = tableString(strings, false);
                    String methodName = tableString(strings, false);
                    String fileName = tableString(strings, true);
                    frames[f] = new StackTraceElement(classLoaderName, moduleName, moduleVersion, declaringClass,
                        methodName, fileName, getInt());
                }
                chain[i] = new RemoteThrowables.Info(className, message, frames);
            }
            return RemoteThrowables.rebuild(chain, declaredExceptions == null ? new Class<?>[0] : declaredExceptions,
                codec.classLoader(), codec.allowList());
        } catch (RuntimeException | LinkageError | StackOverflowError | OutOfMemoryError e) {
            throw malformed(e);
        }
    }

    private CodecException malformed(Throwable e) {
        if (e instanceof CodecException codecException) {
            return codecException;
        }
        if (e instanceof OutOfMemoryError) {
            return new CodecException("message refused near byte " + position + ": its values do not fit in this"
                + " node's free heap (" + e.getMessage() + "); give the node a larger heap"
                + " (cumulus run --jvm-arg -Xmx...)", e);
        }
        return new CodecException("malformed message near byte " + position + ": " + e, e);
    }

    private CodecException bad(String what) {
        return new CodecException("malformed message at byte " + position + ": " + what);
    }

    // ------------------------------------------------------------------------------------------------------ values

    private Object readValue() {
        budget.value(position);
        byte tag = getByte();
        cost = 1;
        if (tag >= Tags.BOOLEAN && tag <= Tags.DOUBLE) {
            budget.heap(DecodeBudget.OBJECT_BYTES + 8, position, "a boxed value");
        }
        return switch (tag) {
            case Tags.NULL -> null;
            case Tags.REF -> {
                int handle = getInt();
                if (handle < 0 || handle >= handleCount) {
                    throw bad("back-reference to object " + handle + ", which the message has not defined");
                }
                Object target = handle == 0 ? firstHandle : handles.get(handle - 1);
                if (target == VIEW_HANDLE) {
                    throw bad("back-reference to object " + handle + ", a byte[] read as a view, which is not a value");
                }
                cost = handleCosts[handle];
                yield target;
            }
            case Tags.REMOTE_REF -> readRemoteRef();
            case Tags.BOOLEAN -> getBoolean();
            case Tags.BYTE -> getByte();
            case Tags.SHORT -> getShort();
            case Tags.CHAR -> getChar();
            case Tags.INT -> getInt();
            case Tags.LONG -> getLong();
            case Tags.FLOAT -> getFloat();
            case Tags.DOUBLE -> getDouble();
            case Tags.STRING -> nonNull(rawString(limits.maxStringChars()), "string");
            case Tags.ENUM -> readEnum();
            case Tags.RECORD -> readRecord();
            case Tags.OBJECT -> readObject();
            case Tags.BOOLEAN_ARRAY, Tags.BYTE_ARRAY, Tags.SHORT_ARRAY, Tags.CHAR_ARRAY, Tags.INT_ARRAY,
                 Tags.LONG_ARRAY, Tags.FLOAT_ARRAY, Tags.DOUBLE_ARRAY -> readPrimitiveArray(tag);
            case Tags.OBJECT_ARRAY -> readObjectArray();
            case Tags.ARRAY_LIST -> {
                int count = count(1, 40, DecodeBudget.REFERENCE_BYTES);
                yield fill(register(new ArrayList<>(capacity(count))), count, Charge.NOTHING);
            }
            case Tags.LINKED_LIST ->
                fill(register(new LinkedList<>()), count(1, 40, DecodeBudget.NODE_BYTES), Charge.NOTHING);
            case Tags.ARRAY_DEQUE -> {
                int count = count(1, 40, 2 * DecodeBudget.REFERENCE_BYTES);
                yield fill(register(new ArrayDeque<>(capacity(count))), count, Charge.NOTHING);
            }
            case Tags.HASH_SET -> {
                int count = count(1, 64, DecodeBudget.NODE_BYTES);
                yield fill(register(HashSet.newHashSet(capacity(count))), count, Charge.HASHING);
            }
            case Tags.LINKED_HASH_SET -> {
                int count = count(1, 64, DecodeBudget.NODE_BYTES);
                yield fill(register(LinkedHashSet.newLinkedHashSet(capacity(count))), count, Charge.HASHING);
            }
            case Tags.TREE_SET ->
                fill(register(new TreeSet<>()), count(1, 48, DecodeBudget.NODE_BYTES), Charge.COMPARISONS);
            case Tags.HASH_MAP -> {
                int count = count(2, 64, DecodeBudget.NODE_BYTES);
                yield fill(register(HashMap.newHashMap(capacity(count))), count, Charge.HASHING);
            }
            case Tags.LINKED_HASH_MAP -> {
                int count = count(2, 64, DecodeBudget.NODE_BYTES);
                yield fill(register(LinkedHashMap.newLinkedHashMap(capacity(count))), count, Charge.HASHING);
            }
            case Tags.TREE_MAP ->
                fill(register(new TreeMap<>()), count(2, 48, DecodeBudget.NODE_BYTES), Charge.COMPARISONS);
            case Tags.FIXED_SIZE_LIST -> {
                Object[] elements = new Object[count(1, 56, DecodeBudget.REFERENCE_BYTES)];
                List<Object> list = register(Arrays.asList(elements));
                int handle = handleCount - 1;
                readInto(elements);
                handleCosts[handle] = cost;
                yield list;
            }
            case Tags.IMMUTABLE_LIST -> {
                Object[] elements = readInto(new Object[count(1, 56, 2 * DecodeBudget.REFERENCE_BYTES)]);
                yield hasNull(elements) ? Collections.unmodifiableList(Arrays.asList(elements)) : List.of(elements);
            }
            case Tags.IMMUTABLE_SET -> readImmutableSet(count(1, 56, 3 * DecodeBudget.REFERENCE_BYTES));
            case Tags.UNMODIFIABLE_SET -> {
                int count = count(1, 80, DecodeBudget.NODE_BYTES);
                yield Collections.unmodifiableSet(fill(LinkedHashSet.newLinkedHashSet(capacity(count)), count,
                    Charge.HASHING));
            }
            case Tags.IMMUTABLE_MAP ->
                readImmutableMap(count(2, 120, DecodeBudget.NODE_BYTES + 4 * DecodeBudget.REFERENCE_BYTES));
            case Tags.UNMODIFIABLE_MAP -> {
                int count = count(2, 80, DecodeBudget.NODE_BYTES);
                yield Collections.unmodifiableMap(fill(LinkedHashMap.newLinkedHashMap(capacity(count)), count,
                    Charge.HASHING));
            }
            case Tags.OPTIONAL_EMPTY -> Optional.empty();
            case Tags.OPTIONAL -> {
                budget.heap(DecodeBudget.OBJECT_BYTES, position, "an Optional");
                enter();
                Object value = nonNull(readValue(), "Optional value");
                exit();
                cost = DecodeBudget.add(1, cost);
                yield Optional.of(value);
            }
            case Tags.INSTANT -> {
                budget.heap(DecodeBudget.OBJECT_BYTES + 16, position, "an Instant");
                yield Instant.ofEpochSecond(getLong(), getInt());
            }
            case Tags.DURATION -> {
                budget.heap(DecodeBudget.OBJECT_BYTES + 16, position, "a Duration");
                yield Duration.ofSeconds(getLong(), getInt());
            }
            case Tags.LOCAL_DATE -> {
                budget.heap(DecodeBudget.OBJECT_BYTES + 8, position, "a LocalDate");
                yield LocalDate.of(getInt(), getByte(), getByte());
            }
            case Tags.BIG_INTEGER -> new BigInteger(magnitude());
            case Tags.BIG_DECIMAL -> {
                budget.heap(DecodeBudget.OBJECT_BYTES + 24, position, "a BigDecimal");
                yield new BigDecimal(new BigInteger(magnitude()), getInt());
            }
            case Tags.UUID -> {
                budget.heap(DecodeBudget.OBJECT_BYTES + 16, position, "a UUID");
                yield new UUID(getLong(), getLong());
            }
            default -> throw bad("unknown tag " + tag);
        };
    }

    private Object readRemoteRef() {
        int nodeId = getInt();
        long objectId = getLong();
        String interfaceName = nonNull(rawString(limits.maxClassNameLength()), "interface name");
        RemoteRef ref = new RemoteRef(nodeId, objectId, interfaceName);
        try {
            return codec.referenceHandler().fromRef(ref);
        } catch (CodecException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new CodecException("the reference handler rejected " + ref + ": " + e.getMessage(), e);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private Object readEnum() {
        Class<?> type = readClass();
        String name = nonNull(rawString(limits.maxClassNameLength()), "enum constant name");
        if (!type.isEnum()) {
            throw bad(type.getName() + " is not an enum");
        }
        try {
            return Enum.valueOf((Class) type, name);
        } catch (IllegalArgumentException e) {
            throw bad("enum " + type.getName() + " has no constant '" + name + "' here");
        }
    }

    private Object readRecord() {
        Class<?> type = readClass();
        TypeInfo info = TypeInfo.of(type);
        if (info.kind != TypeInfo.Kind.RECORD) {
            throw bad(type.getName() + " is not a record that can be decoded"
                + (info.refusal == null ? "" : ": " + info.refusal));
        }
        budget.heap(DecodeBudget.OBJECT_BYTES + (long) DecodeBudget.REFERENCE_BYTES * info.slots.length, position,
            "record " + type.getName());
        enter();
        TypeInfo.Slot[] slots = info.slots;
        Object[] values = new Object[slots.length];
        long sum = 1;
        for (int i = 0; i < slots.length; i++) {
            cost = 1;
            values[i] = switch (slots[i].code()) {
                case 'Z' -> getBoolean();
                case 'B' -> getByte();
                case 'S' -> getShort();
                case 'C' -> getChar();
                case 'I' -> getInt();
                case 'J' -> getLong();
                case 'F' -> getFloat();
                case 'D' -> getDouble();
                default -> readValue();
            };
            sum = DecodeBudget.add(sum, cost);
        }
        exit();
        cost = sum;
        try {
            return info.constructor.newInstance(values);
        } catch (InvocationTargetException e) {
            throw new CodecException("the constructor of record " + type.getName()
                + " rejected the decoded values: " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | IllegalArgumentException e) {
            throw bad("the decoded values do not fit the components of record " + type.getName() + ": " + e);
        }
    }

    private Object readObject() {
        Class<?> type = readClass();
        TypeInfo info = TypeInfo.of(type);
        if (info.kind != TypeInfo.Kind.OBJECT) {
            throw bad(type.getName() + " is not a @Transferable class that can be decoded"
                + (info.refusal == null ? "" : ": " + info.refusal));
        }
        budget.heap(DecodeBudget.OBJECT_BYTES + (long) DecodeBudget.REFERENCE_BYTES * info.slots.length, position,
            "object " + type.getName());
        Object object;
        try {
            object = info.constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new CodecException("the no-argument constructor of " + type.getName() + " threw " + e.getCause(),
                e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new CodecException("cannot instantiate " + type.getName() + ": " + e, e);
        }
        register(object);
        int handle = handleCount - 1;
        if (info.identityHash) {
            handleCosts[handle] = 1; // its hash never looks at its fields, even while they are being read
        }
        long sum = 1;
        enter();
        for (TypeInfo.Slot slot : info.slots) {
            Field field = slot.field();
            cost = 1;
            try {
                switch (slot.code()) {
                    case 'Z' -> field.setBoolean(object, getBoolean());
                    case 'B' -> field.setByte(object, getByte());
                    case 'S' -> field.setShort(object, getShort());
                    case 'C' -> field.setChar(object, getChar());
                    case 'I' -> field.setInt(object, getInt());
                    case 'J' -> field.setLong(object, getLong());
                    case 'F' -> field.setFloat(object, getFloat());
                    case 'D' -> field.setDouble(object, getDouble());
                    default -> field.set(object, readValue());
                }
            } catch (IllegalAccessException | IllegalArgumentException e) {
                throw bad(slot.label() + " of " + type.getName() + " cannot take the decoded value: " + e);
            }
            sum = DecodeBudget.add(sum, cost);
        }
        exit();
        cost = info.identityHash ? 1 : sum;
        handleCosts[handle] = cost;
        return object;
    }

    /** The handle a {@link BytesView} argument takes ({@link #readBytesView}). */
    private static final Object VIEW_HANDLE = new Object();

    private BytesView readBytesView() {
        byte tag = getByte();
        if (tag == Tags.NULL) {
            return null;
        }
        if (tag != Tags.BYTE_ARRAY) {
            throw bad("a BytesView parameter takes a byte[], not a value of tag " + tag);
        }
        int length = getInt();
        if (length < 0) {
            throw bad("negative array length " + length);
        }
        need(length);
        budget.heap(DecodeBudget.OBJECT_BYTES + 16, position, "a byte[] view");
        byte[] array = buffer.byteArray();
        BytesView view;
        if (array != null) {
            view = new BytesView(array, (int) buffer.wrapAdjustment() + position, length);
        } else {
            byte[] copy = new byte[length];
            buffer.getBytes(position, copy);
            view = new BytesView(copy, 0, length);
        }
        // a byte[] takes a handle, so later back-references keep their numbers; a view is not a value, so a
        // back-reference to it is refused rather than handing the view to a byte[] or Object parameter
        register(VIEW_HANDLE);
        handleCosts[handleCount - 1] = 1;
        position += length;
        return view;
    }

    private Object readPrimitiveArray(byte tag) {
        Class<?> arrayType = switch (tag) {
            case Tags.BOOLEAN_ARRAY -> boolean[].class;
            case Tags.BYTE_ARRAY -> byte[].class;
            case Tags.SHORT_ARRAY -> short[].class;
            case Tags.CHAR_ARRAY -> char[].class;
            case Tags.INT_ARRAY -> int[].class;
            case Tags.LONG_ARRAY -> long[].class;
            case Tags.FLOAT_ARRAY -> float[].class;
            default -> double[].class;
        };
        TypeInfo info = TypeInfo.of(arrayType);
        int length = getInt();
        if (length < 0) {
            throw bad("negative array length " + length);
        }
        long bytes = (long) length << info.shift;
        need(bytes);
        budget.heap(DecodeBudget.OBJECT_BYTES + (tag == Tags.BOOLEAN_ARRAY ? length : bytes), position,
            "an array of " + length + " elements");
        Object array = switch (tag) { // not Array.newInstance: a reflective call per array
            case Tags.BOOLEAN_ARRAY -> new boolean[length];
            case Tags.BYTE_ARRAY -> new byte[length];
            case Tags.SHORT_ARRAY -> new short[length];
            case Tags.CHAR_ARRAY -> new char[length];
            case Tags.INT_ARRAY -> new int[length];
            case Tags.LONG_ARRAY -> new long[length];
            case Tags.FLOAT_ARRAY -> new float[length];
            default -> new double[length];
        };
        register(array);
        handleCosts[handleCount - 1] = 1;
        if (array instanceof boolean[] booleans) {
            for (int i = 0; i < length; i++) {
                booleans[i] = buffer.getByte(position + i) != 0;
            }
        } else if (Bulk.NATIVE_LITTLE_ENDIAN) {
            Bulk.get(buffer, position, array, info.baseOffset, (int) bytes);
        } else {
            int at = position;
            for (int i = 0; i < length; i++) {
                switch (array) {
                    case byte[] a -> a[i] = buffer.getByte(at + i);
                    case short[] a -> a[i] = buffer.getShort(at + 2 * i, LE);
                    case char[] a -> a[i] = buffer.getChar(at + 2 * i, LE);
                    case int[] a -> a[i] = buffer.getInt(at + 4 * i, LE);
                    case long[] a -> a[i] = buffer.getLong(at + 8 * i, LE);
                    case float[] a -> a[i] = buffer.getFloat(at + 4 * i, LE);
                    case double[] a -> a[i] = buffer.getDouble(at + 8 * i, LE);
                    default -> throw new IllegalStateException("not a primitive array: " + arrayType);
                }
            }
        }
        position += (int) bytes;
        return array;
    }

    private Object readObjectArray() {
        Class<?> component = readClass();
        int count = count(1, DecodeBudget.OBJECT_BYTES, DecodeBudget.REFERENCE_BYTES);
        Object[] array = (Object[]) Array.newInstance(component, count);
        register(array);
        handleCosts[handleCount - 1] = 1; // arrays hash by identity
        readInto(array);
        cost = 1;
        return array;
    }

    /** Reads {@code elements.length} values into the array; {@link #cost} is then 1 plus theirs. */
    private Object[] readInto(Object[] elements) {
        enter();
        long sum = 1;
        for (int i = 0; i < elements.length; i++) {
            elements[i] = readValue();
            sum = DecodeBudget.add(sum, cost);
        }
        exit();
        cost = sum;
        return elements;
    }

    /** What a container charges for each element or map key before it takes it ({@link HashWork}). */
    private enum Charge { NOTHING, HASHING, COMPARISONS }

    /**
     * Fills a collection (the last handle, or not one), charging each element as {@code charge} says; {@link #cost}
     * is then 1 plus its elements'.
     */
    private <C extends Collection<Object>> C fill(C collection, int count, Charge charge) {
        int handle = handleCount - 1;
        HashWork hashing = charge == Charge.HASHING ? new HashWork(budget) : null;
        enter();
        long sum = 1;
        for (int i = 0; i < count; i++) {
            Object element = readValue();
            if (charge != Charge.NOTHING) {
                charge(hashing, element, cost, collection.size());
            }
            collection.add(element);
            sum = DecodeBudget.add(sum, cost);
        }
        exit();
        return finish(collection, handle, sum);
    }

    /** Fills a map (the last handle, or not one), charging each key as {@code charge} says. */
    private <M extends Map<Object, Object>> M fill(M map, int count, Charge charge) {
        int handle = handleCount - 1;
        HashWork hashing = charge == Charge.HASHING ? new HashWork(budget) : null;
        enter();
        long sum = 1;
        for (int i = 0; i < count; i++) {
            Object key = readValue();
            long keyCost = cost;
            Object value = readValue();
            charge(hashing, key, keyCost, map.size());
            map.put(key, value);
            sum = DecodeBudget.add(DecodeBudget.add(sum, keyCost), cost);
        }
        exit();
        return finish(map, handle, sum);
    }

    /** Charges hashing {@code key} if {@code hashing} is given, else the comparisons of adding it to {@code size}. */
    private void charge(HashWork hashing, Object key, long keyCost, int size) {
        if (hashing != null) {
            hashing.charge(key, keyCost, limits.maxDepth() + 1, position);
        } else {
            HashWork.chargeSorted(budget, key, keyCost, size, limits.maxDepth() + 1, position);
        }
    }

    /** Sets {@link #cost} (and the handle's, if the container is the handle {@code handle}) to {@code sum}. */
    private <T> T finish(T container, int handle, long sum) {
        cost = sum;
        if (handle >= 0 && (handle == 0 ? firstHandle : handles.get(handle - 1)) == container) {
            handleCosts[handle] = sum;
        }
        return container;
    }

    /** {@code Set.of} of the next {@code count} values, charging its hashing and probing first. */
    private Set<Object> readImmutableSet(int count) {
        Object[] elements = new Object[count];
        int[] hashes = new int[count];
        long[] costs = new long[count];
        HashWork hashing = new HashWork(budget);
        enter();
        long sum = 1;
        for (int i = 0; i < count; i++) {
            elements[i] = nonNull(readValue(), "element of an immutable set");
            costs[i] = cost;
            hashes[i] = hashing.charge(elements[i], cost, limits.maxDepth() + 1, position);
            sum = DecodeBudget.add(sum, cost);
        }
        exit();
        HashWork.chargeProbing(budget, hashes, costs, count, position);
        cost = sum;
        return Set.of(elements);
    }

    /** {@code Map.copyOf} of the next {@code count} entries, charging its hashing and probing first. */
    private Map<Object, Object> readImmutableMap(int count) {
        LinkedHashMap<Object, Object> entries = LinkedHashMap.newLinkedHashMap(capacity(count));
        int[] hashes = new int[count];
        long[] costs = new long[count];
        HashWork hashing = new HashWork(budget);
        enter();
        long sum = 1;
        for (int i = 0; i < count; i++) {
            Object key = nonNull(readValue(), "key of an immutable map");
            costs[i] = cost;
            Object value = nonNull(readValue(), "value of an immutable map");
            hashes[i] = hashing.charge(key, costs[i], limits.maxDepth() + 1, position);
            entries.put(key, value);
            sum = DecodeBudget.add(DecodeBudget.add(sum, costs[i]), cost);
        }
        exit();
        HashWork.chargeProbing(budget, hashes, costs, count, position);
        cost = sum;
        return Map.copyOf(entries);
    }

    private static int capacity(int count) {
        return Math.min(count, MAX_INITIAL_CAPACITY);
    }

    private static boolean hasNull(Object[] elements) {
        for (Object element : elements) {
            if (element == null) {
                return true;
            }
        }
        return false;
    }

    private <T> T register(T object) {
        if (handleCount == handleCosts.length) {
            handleCosts = Arrays.copyOf(handleCosts, handleCosts.length * 2);
        }
        handleCosts[handleCount] = HashWork.UNKNOWN;
        if (handleCount == 0) {
            firstHandle = object;
        } else {
            if (handles == null) {
                handles = new ArrayList<>();
            }
            handles.add(object);
        }
        handleCount++;
        return object;
    }

    /**
     * Reads an element count and checks it against the limit and the bytes left ({@code minBytes} per element), then
     * charges the container's estimated heap ({@code baseBytes} plus {@code bytesPerElement} per element).
     */
    private int count(int minBytes, long baseBytes, long bytesPerElement) {
        int count = getInt();
        if (count < 0 || count > limits.maxElements()) {
            throw bad("element count " + count + " outside 0.." + limits.maxElements()
                + " (CodecLimits.maxElements)");
        }
        if ((long) count * minBytes > remaining()) {
            throw bad("element count " + count + " but only " + remaining() + " bytes left");
        }
        budget.heap(baseBytes + bytesPerElement * count, position, "a container of " + count + " elements");
        return count;
    }

    private byte[] magnitude() {
        int length = getInt();
        if (length < 1 || length > limits.maxElements()) {
            throw bad("big number of " + length + " bytes");
        }
        need(length);
        budget.heap(2L * DecodeBudget.OBJECT_BYTES + 24 + length, position, "a big number");
        byte[] bytes = new byte[length];
        buffer.getBytes(position, bytes);
        position += length;
        return bytes;
    }

    private void enter() {
        if (++depth > limits.maxDepth()) {
            throw bad("values nested deeper than CodecLimits.maxDepth (" + limits.maxDepth() + ")");
        }
    }

    private void exit() {
        depth--;
    }

    // ---------------------------------------------------------------------------------------------- class table

    private Class<?> readClass() {
        int reference = getInt();
        if (reference >= 0) {
            if (classes == null || reference >= classes.size()) {
                throw bad("class reference " + reference + ", which the message has not defined");
            }
            return classes.get(reference);
        }
        if (reference != Tags.NEW_CLASS) {
            throw bad("invalid class reference " + reference);
        }
        String name = nonNull(rawString(limits.maxClassNameLength()), "class name");
        int fingerprint = getInt();
        Class<?> type = codec.resolveClass(name);
        TypeInfo info = TypeInfo.of(type);
        if ((info.kind == TypeInfo.Kind.RECORD || info.kind == TypeInfo.Kind.OBJECT)
            && info.fingerprint != fingerprint) {
            throw new CodecException("class " + name + " has different fields on the sender than here; run the"
                + " same version of the class on every node");
        }
        if (classes == null) {
            classes = new ArrayList<>();
        }
        classes.add(type);
        return type;
    }

    private String tableString(List<String> table, boolean nullable) {
        int reference = getInt();
        if (reference == Tags.NULL_STRING && nullable) {
            return null;
        }
        if (reference == Tags.NEW_STRING) {
            String value = nonNull(rawString(limits.maxClassNameLength()), "string");
            table.add(value);
            return value;
        }
        if (reference < 0 || reference >= table.size()) {
            throw bad("string reference " + reference + ", which the message has not defined");
        }
        return table.get(reference);
    }

    // ---------------------------------------------------------------------------------------------- primitives

    private <T> T nonNull(T value, String what) {
        if (value == null) {
            throw bad("missing " + what);
        }
        return value;
    }

    private String rawString(int maxChars) {
        byte coder = getByte();
        if (coder == Tags.CODER_NULL) {
            return null;
        }
        int length = getInt();
        if (length < 0 || length > maxChars) {
            throw bad("string length " + length + " outside 0.." + maxChars);
        }
        if (coder == Tags.CODER_LATIN1) {
            need(length);
            budget.heap(2L * DecodeBudget.OBJECT_BYTES + 24 + length, position, "a string of " + length + " chars");
            byte[] bytes = new byte[length];
            buffer.getBytes(position, bytes);
            position += length;
            return new String(bytes, StandardCharsets.ISO_8859_1);
        }
        if (coder == Tags.CODER_UTF16) {
            need(2L * length);
            budget.heap(2L * DecodeBudget.OBJECT_BYTES + 24 + 4L * length, position,
                "a string of " + length + " chars");
            char[] chars = new char[length];
            for (int i = 0; i < length; i++) {
                chars[i] = buffer.getChar(position + 2 * i, LE);
            }
            position += 2 * length;
            return new String(chars);
        }
        throw bad("invalid string coder " + coder);
    }

    private void need(long bytes) {
        if (bytes < 0 || bytes > limit - position) {
            throw bad("truncated: " + bytes + " bytes needed, " + (limit - position) + " left");
        }
    }

    private byte getByte() {
        need(1);
        return buffer.getByte(position++);
    }

    private boolean getBoolean() {
        byte value = getByte();
        if (value != 0 && value != 1) {
            throw bad("invalid boolean " + value);
        }
        return value == 1;
    }

    private short getShort() {
        need(2);
        short value = buffer.getShort(position, LE);
        position += 2;
        return value;
    }

    private char getChar() {
        need(2);
        char value = buffer.getChar(position, LE);
        position += 2;
        return value;
    }

    private int getInt() {
        need(4);
        int value = buffer.getInt(position, LE);
        position += 4;
        return value;
    }

    private long getLong() {
        need(8);
        long value = buffer.getLong(position, LE);
        position += 8;
        return value;
    }

    private float getFloat() {
        need(4);
        float value = buffer.getFloat(position, LE);
        position += 4;
        return value;
    }

    private double getDouble() {
        need(8);
        double value = buffer.getDouble(position, LE);
        position += 8;
        return value;
    }
}
