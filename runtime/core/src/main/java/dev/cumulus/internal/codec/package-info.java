/**
 * The by-value transfer codec: encodes the arguments, results and exceptions of remote and replicated calls into
 * Agrona buffers and decodes them on the receiving node ({@link dev.cumulus.internal.codec.ValueCodec},
 * {@link dev.cumulus.internal.codec.ValueReader}). Only allow-listed kinds travel: primitives, strings, arrays,
 * records, enums, common JDK collections, a few value classes and {@code @dev.cumulus.Transferable} classes; remote
 * objects travel as references through a {@link dev.cumulus.internal.codec.ReferenceHandler}; Cumulus's own compact
 * wire forms go out as {@link dev.cumulus.internal.codec.PreEncodedBytes} (written straight into the message, read
 * back as a {@code byte[]}, or as a {@link dev.cumulus.internal.codec.BytesView} of the message for a parameter
 * declared so). Wire format, limits and security rules: {@code docs/design/TRANSFER.md}.
 *
 * <p>Threads: any. Codec instances are immutable and thread-safe (class metadata is cached in {@code ClassValue}s);
 * each write and each {@code ValueReader} holds its own per-message state and belongs to one thread at a time.
 *
 * <p>Never: uses Java native serialization (a {@code Serializable} class is not transferable for that reason alone);
 * trusts a length from the wire without checking it against the bytes left and {@link
 * dev.cumulus.internal.codec.CodecLimits}; spends more work or heap on one message than its decode budget (charged
 * before it is spent, hashing of sets and maps included); loads, initialises or instantiates a class named on the
 * wire unless the {@link dev.cumulus.internal.codec.TransferAllowList} permits it and it is an accepted kind; throws
 * anything but {@link dev.cumulus.internal.codec.CodecException} on bad input.
 */
package dev.cumulus.internal.codec;
