package dev.cumulus.lsp;

import dev.cumulus.lsp.model.SourceRange;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.Range;

/** Conversions from the model's types to LSP4J's. */
final class Lsp {
    private Lsp() {
    }

    static Range range(SourceRange r) {
        return new Range(new Position(r.startLine(), r.startColumn()), new Position(r.endLine(), r.endColumn()));
    }

    static boolean overlaps(SourceRange r, Range range) {
        return range == null || r.touchesLines(range.getStart().getLine(), range.getEnd().getLine());
    }
}
