package dev.cumulus.lsp.model;

/**
 * A Java compile error of a workspace source, as the compiler (ECJ) reported it: its message, placed in the analysed
 * text.
 *
 * @param range   the compiler's source range (at least the line)
 * @param line    1-based line
 * @param message the compiler's own message
 */
public record CompileError(SourceRange range, int line, String message) {
}
