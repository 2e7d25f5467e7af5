package dev.cumulus.lsp.model;

import dev.cumulus.analysis.Access;
import java.util.List;

/**
 * The read/write classification of one cloud method, placed on its name.
 *
 * @param uri         the document
 * @param nameRange   the method name in the declaration
 * @param access      read or write
 * @param reasonChain why it is a write (the analyzer's chain), empty for a read
 * @param className   internal name of the declaring class
 * @param methodName  the method's name
 * @param descriptor  the method's descriptor
 */
public record MethodMark(String uri, SourceRange nameRange, Access access, List<String> reasonChain, String className,
                         String methodName, String descriptor) {
}
