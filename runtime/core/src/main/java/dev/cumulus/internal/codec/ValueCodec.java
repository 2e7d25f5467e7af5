package dev.cumulus.internal.codec;

import java.lang.reflect.Method;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Encodes Java values into Agrona buffers and decodes them, for passing arguments, results and exceptions by value
 * between nodes. Little-endian; the wire format is described in {@code docs/design/TRANSFER.md}.
 *
 * <p>Transferable: primitives and boxes, strings, arrays, records, enums, the JDK's common collections and maps
 * (natural ordering only for sorted ones), {@code Optional}, {@code Instant}, {@code Duration}, {@code LocalDate},
 * {@code BigInteger}, {@code BigDecimal}, {@code UUID}, and classes annotated {@link dev.cumulus.Transferable}.
 * Values the {@link ReferenceHandler} claims travel as {@link RemoteRef}s. Anything else is refused at the sender with
 * a {@link dev.cumulus.NotTransferableException} naming the type and the path to it. Arrays, {@code @Transferable}
 * objects and mutable collections keep their sharing and cycles within one message.
 *
 * <p>Thread-safe: every call works on its own encoding or decoding state; class metadata is cached per class.
 * Writes need a buffer that grows ({@code ExpandableArrayBuffer}, {@code ExpandableDirectByteBuffer}); a fixed buffer
 * that is too small throws {@link IndexOutOfBoundsException}. A write that fails leaves the buffer's bytes beyond
 * {@code offset} undefined.
 */
public final class ValueCodec {
    private static final int MAX_CACHED_CLASSES = 4096;

    private final ReferenceHandler references;
    private final ClassLoader classLoader;
    private final CodecLimits limits;
    private final TransferAllowList allowList;
    private final ConcurrentHashMap<String, Class<?>> resolved = new ConcurrentHashMap<>();

    /**
     * A codec that decodes the classes of the JVM's {@link TransferAllowList#shared() shared allow-list}.
     *
     * @param references  decides which values travel by reference ({@link ReferenceHandler#NONE} for none)
     * @param classLoader resolves class names read from the wire
     * @param limits      bounds for encoding and decoding ({@link CodecLimits#DEFAULTS})
     */
    public ValueCodec(ReferenceHandler references, ClassLoader classLoader, CodecLimits limits) {
        this(references, classLoader, limits, TransferAllowList.shared());
    }

    /**
     * @param allowList the classes a message may name (see {@link TransferAllowList})
     */
    public ValueCodec(ReferenceHandler references, ClassLoader classLoader, CodecLimits limits,
                      TransferAllowList allowList) {
        this.references = Objects.requireNonNull(references, "references");
        this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
        this.limits = Objects.requireNonNull(limits, "limits");
        this.allowList = Objects.requireNonNull(allowList, "allowList");
    }

    /** The classes this codec's messages may name. */
    public TransferAllowList allowList() {
        return allowList;
    }

    public ReferenceHandler referenceHandler() {
        return references;
    }

    public ClassLoader classLoader() {
        return classLoader;
    }

    public CodecLimits limits() {
        return limits;
    }

    /**
     * Encodes one value as a self-contained message.
     *
     * @param contextLabel what the value is, for error messages, e.g. {@code "result of Worker.compute"}
     * @return the offset just after the encoded value
     * @throws dev.cumulus.NotTransferableException if the value (or anything it refers to) may not be transferred;
     *                                              the message names the type and the path from {@code contextLabel}
     */
    public int write(MutableDirectBuffer buffer, int offset, Object value, String contextLabel) {
        return write(buffer, offset, value, () -> contextLabel == null ? "value" : contextLabel);
    }

    /** {@link #write(MutableDirectBuffer, int, Object, String)} with the label built only for an error message. */
    public int write(MutableDirectBuffer buffer, int offset, Object value, Supplier<String> contextLabel) {
        checkOffset(offset);
        int end = SoleValues.write(buffer, offset, value, limits);
        if (end >= 0) {
            return end;
        }
        Encoder encoder = new Encoder(references, limits, buffer, offset);
        encoder.writeTop(value, contextLabel);
        return encoder.position();
    }

    /**
     * Encodes the arguments of a call as one message: the values one after another, with one handle table and class
     * table, so objects shared between arguments stay shared. Read it back with one {@link ValueReader}, with
     * {@link ValueReader#readArguments(int)} or one {@link ValueReader#read()} per argument.
     *
     * @param arguments the arguments ({@code null} for none)
     * @param method    the interface method; refusals are labelled "argument <i>i</i> of Iface.method", counting from 1
     * @return the offset just after the encoded arguments
     */
    public int writeArguments(MutableDirectBuffer buffer, int offset, Object[] arguments, Method method) {
        int count = arguments == null ? 0 : arguments.length;
        if (count != method.getParameterCount()) {
            throw new IllegalArgumentException(method + " takes " + method.getParameterCount() + " arguments, not "
                + count);
        }
        return writeArguments(buffer, offset, arguments,
            () -> method.getDeclaringClass().getSimpleName() + "." + method.getName());
    }

    /**
     * Encodes call arguments as one message; refusals are labelled "argument <i>i</i> of {@code callLabel}",
     * counting from 1 (the label is built only then).
     */
    public int writeArguments(MutableDirectBuffer buffer, int offset, Object[] arguments, Supplier<String> callLabel) {
        return writeValues(buffer, offset, arguments, i -> "argument " + (i + 1) + " of " + callLabel.get());
    }

    /**
     * Encodes values one after another as one message, as {@link #writeArguments}; a refusal is labelled
     * {@code labels.apply(i)} for the value at {@code i} (built only then).
     */
    public int writeValues(MutableDirectBuffer buffer, int offset, Object[] values, IntFunction<String> labels) {
        checkOffset(offset);
        int count = values == null ? 0 : values.length;
        if (count == 1) {
            int end = SoleValues.write(buffer, offset, values[0], limits);
            if (end >= 0) {
                return end;
            }
        }
        Encoder encoder = new Encoder(references, limits, buffer, offset);
        for (int i = 0; i < count; i++) {
            int at = i;
            encoder.writeTop(values[i], () -> labels.apply(at));
        }
        return encoder.position();
    }

    /**
     * Encodes a throwable: class name, message and stack trace of it and of its causes (at most
     * {@link CodecLimits#maxCauseDepth()} throwables of {@link CodecLimits#maxStackFrames()} frames each; longer
     * messages and names are cut). Never refuses. Read it back with {@link ValueReader#readThrowable(Class[])}.
     *
     * @return the offset just after the encoded throwable
     */
    public int writeThrowable(MutableDirectBuffer buffer, int offset, Throwable throwable) {
        Encoder encoder = new Encoder(references, limits, buffer, offset);
        encoder.writeThrowable(Objects.requireNonNull(throwable, "throwable"));
        return encoder.position();
    }

    /**
     * @return a reader of the {@code length} bytes at {@code offset}; see {@link ValueReader}
     * @throws CodecException if the range lies outside the buffer or exceeds {@link CodecLimits#maxMessageBytes()}
     */
    public ValueReader reader(DirectBuffer buffer, int offset, int length) {
        return new ValueReader(this, buffer, offset, length);
    }

    /**
     * Reads the one value of a message written by {@link #write} (or the one argument of a one-argument
     * {@link #writeArguments} message): what {@code reader(buffer, offset, length).read()} returns, quicker for
     * simple values.
     *
     * @throws CodecException as {@link #reader} and {@link ValueReader#read()} do
     */
    public Object readValue(DirectBuffer buffer, int offset, int length) {
        Object value = readSimple(buffer, offset, length);
        return value != NOT_SIMPLE ? value : reader(buffer, offset, length).read();
    }

    private static void checkOffset(int offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("offset must not be negative: " + offset);
        }
    }

    /** What {@link #readSimple} returns for a message whose value is not a simple one. */
    public static final Object NOT_SIMPLE = SoleValues.OTHER;

    /**
     * Reads the one value of a message if it is a simple one — {@code null}, a boxed {@code int}, {@code long},
     * {@code double} or {@code boolean}, or a {@code byte[]} — else returns {@link #NOT_SIMPLE} and reads nothing. No code of the program
     * runs (no class is resolved, no constructor called), so a polling thread may decode such values as they come.
     *
     * @throws CodecException if the message is a simple value cut short
     */
    public Object readSimple(DirectBuffer buffer, int offset, int length) {
        if (offset < 0 || length < 0 || (long) offset + length > buffer.capacity()
            || length > limits.maxMessageBytes()) {
            return NOT_SIMPLE; // the full reader reports it
        }
        return SoleValues.read(buffer, offset, length);
    }

    /**
     * Resolves a class name read from the wire and accepts it only if the {@link TransferAllowList} permits it (the
     * name before the class is loaded, the class before anything initialises it) and it is a record, an enum, a
     * {@code @Transferable} class, a built-in kind, or an array (element type) of those.
     */
    Class<?> resolveClass(String name) {
        Class<?> type = resolved.get(name);
        if (type != null) {
            return type;
        }
        if (!allowList.permitsName(name)) {
            throw notAllowed(name);
        }
        try {
            type = Class.forName(name, false, classLoader);
        } catch (ClassNotFoundException | LinkageError | IllegalArgumentException e) {
            throw new CodecException("class " + name + " named in the message is not available on this node", e);
        }
        if (!allowList.permits(type)) {
            throw notAllowed(name);
        }
        if (!TypeInfo.acceptableComponent(type)) {
            throw new CodecException("class " + name + " named in the message may not be decoded: only records,"
                + " enums, @Transferable classes and built-in kinds are accepted");
        }
        if (resolved.size() < MAX_CACHED_CLASSES) {
            resolved.putIfAbsent(name, type);
        }
        return type;
    }

    private static CodecException notAllowed(String name) {
        return new CodecException("class " + name + " named in the message is not on this node's transfer allow-list:"
            + " only classes reached from the signatures of exported interfaces, clouds and PastSet templates, the"
            + " JDK's value types and classes registered with dev.cumulus.Transfers.allow are decoded; register it"
            + " (on every node) if it travels where its declared type is Object or an unsealed interface");
    }

    @Override
    public String toString() {
        return "ValueCodec[references=" + references + ", limits=" + limits + "]";
    }
}
