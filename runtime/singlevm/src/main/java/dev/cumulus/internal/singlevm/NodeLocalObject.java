package dev.cumulus.internal.singlevm;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * A JDK object that cannot leave the node that made it (docs/design/SINGLEVM.md, "Wire form"): how an image names it
 * ({@link #describe}) and what a node that meets it on another node says ({@link #reached}). A lambda or method
 * reference the JDK made (any but the program's {@code Runnable} and {@code Callable} ones, which the weaver makes
 * shared) is a hidden class whose name means nothing to the program: it is named by the class that made it and the
 * interfaces it implements. Stateless.
 */
final class NodeLocalObject {
    /** How a lambda's description begins: then the capturing class and its interfaces, separated by spaces. */
    private static final String LAMBDA = "lambda ";

    private NodeLocalObject() {
    }

    /** The name that entry of an image gives {@code value}: its class, or for a lambda what it is and where made. */
    static String describe(Object value) {
        Class<?> type = value.getClass();
        int cut = type.getName().indexOf("$$Lambda");
        if (!type.isHidden() || cut < 0) {
            return type.getName();
        }
        return LAMBDA + type.getName().substring(0, cut) + " " + Arrays.stream(type.getInterfaces())
            .map(Class::getName).collect(Collectors.joining(" "));
    }

    /**
     * What is wrong when node {@code self} finds in {@code where} the object {@code description} ({@link #describe})
     * that node {@code home} made, and what to do instead.
     */
    static String reached(String where, String description, long home, int self) {
        if (!description.startsWith(LAMBDA)) {
            return where + " refers to a " + description + " created on node " + home + ", which node " + self
                + " cannot use: mutable JDK objects cannot be shared between nodes in the single-VM mode (use it only"
                + " on the node that created it, or keep the data in the program's own classes or arrays)";
        }
        String[] parts = description.substring(LAMBDA.length()).split(" ");
        String interfaces = String.join(" and ", Arrays.copyOfRange(parts, 1, parts.length));
        return where + " refers to a lambda or method reference implementing " + interfaces + ", made in " + parts[0]
            + " on node " + home + ", which node " + self + " cannot use: only Runnable and Callable lambdas can move"
            + " between nodes in the single-VM mode (use a named class implementing " + interfaces + " instead: it is"
            + " shared like any program object)";
    }
}
