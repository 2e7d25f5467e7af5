package dev.cumulus.analysis;

import java.util.List;

/**
 * The read/write classification of one instance method of a cloud class.
 *
 * <p>The reason chain is empty for a read. For a write it starts with the method itself and follows the calls down to
 * the first write found, e.g. {@code [Stack.push(), Stack.grow(), PUTFIELD StackNode.items at Stack.java:42]}; with
 * overrides it names the overriding class that writes.
 *
 * @param className   internal name of the declaring class
 * @param methodName  method name
 * @param descriptor  method descriptor
 * @param sourceFile  the class's {@code SourceFile} attribute, or {@code null}
 * @param line        first line of the method's code; without line numbers the class line, {@code -1} if unknown
 * @param access      read or write
 * @param reasonChain why it is a write; empty for a read
 */
public record MethodClassification(String className, String methodName, String descriptor, String sourceFile, int line,
                                   Access access, List<String> reasonChain) {
    public MethodClassification {
        reasonChain = reasonChain == null ? List.of() : List.copyOf(reasonChain);
    }

    /** The reason chain joined with {@code " -> "}, empty for a read. */
    public String reason() {
        return String.join(" -> ", reasonChain);
    }
}
