package dev.cumulus.lsp.model;

/**
 * A range in a source text: 0-based lines and UTF-16 columns (what LSP positions use), end exclusive, plus the
 * character offsets it was computed from.
 */
public record SourceRange(int startLine, int startColumn, int endLine, int endColumn, int startOffset, int endOffset) {

    /** True if this range and the line span {@code [fromLine, toLine]} (0-based, inclusive) share a line. */
    public boolean touchesLines(int fromLine, int toLine) {
        return startLine <= toLine && endLine >= fromLine;
    }

    /** True if the 0-based position lies inside this range (end inclusive, so a caret just after a name counts). */
    public boolean contains(int line, int column) {
        if (line < startLine || line > endLine) {
            return false;
        }
        if (line == startLine && column < startColumn) {
            return false;
        }
        return line != endLine || column <= endColumn;
    }
}
