package dev.cumulus;

import dev.cumulus.internal.codec.TransferAllowList;

/**
 * Which classes a node decodes from other nodes' messages. A node decodes a record, enum or {@link Transferable} class
 * only if it is on its allow-list, so bytes from the network never make it load or initialise anything else. The list
 * fills itself: every class in the signature (parameters, result, type arguments) of an exported or called remote
 * interface, of a cloud's methods, and of a PastSet template's fields is on it, with everything those classes hold
 * (record components, {@code @Transferable} fields, array elements, a sealed interface's permitted subclasses), as are
 * the JDK value types the codec supports.
 *
 * <p>Register a class here only when a value of it travels where its declared type does not lead to it: a parameter
 * of type {@code Object}, an interface that is not sealed, a superclass of the value's class. Register it on every node
 * (in {@code main}, before the first call that carries it); classes it holds come with it.
 *
 * <pre>{@code
 * Transfers.allow(Circle.class, Square.class); // passed as Shape, an interface that is not sealed
 * }</pre>
 */
public final class Transfers {
    private Transfers() {
    }

    /** Allows values of these classes (and of what they hold) to be decoded on this node. */
    public static void allow(Class<?>... types) {
        for (Class<?> type : types) {
            TransferAllowList.shared().allow(type);
        }
    }
}
