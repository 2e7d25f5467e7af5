package dev.cumulus.analysis;

/**
 * A second place that explains a {@link Finding}, e.g. the field a read-named method writes, or the cloud class an
 * {@code export} call publishes.
 *
 * @param className  internal name of the class holding the location ({@code dev/example/Stack})
 * @param memberName field or method name, or {@code null} for the class itself
 * @param sourceFile the class's {@code SourceFile} attribute ({@code Stack.java}), or {@code null} if absent
 * @param line       1-based line, or {@code -1} when unknown
 * @param message    what this location is, one short phrase
 */
public record RelatedLocation(String className, String memberName, String sourceFile, int line, String message) {
}
