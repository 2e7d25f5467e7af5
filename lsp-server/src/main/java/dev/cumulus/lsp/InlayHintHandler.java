package dev.cumulus.lsp;

import dev.cumulus.analysis.Access;
import dev.cumulus.lsp.model.MethodMark;
import dev.cumulus.lsp.model.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import org.eclipse.lsp4j.InlayHint;
import org.eclipse.lsp4j.InlayHintParams;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;
import org.eclipse.lsp4j.Position;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * {@code textDocument/inlayHint}: {@code R} or {@code W} before the name of every cloud method, with the reason as the
 * tooltip (see {@link HoverHandler#explain}).
 */
final class InlayHintHandler {

    List<InlayHint> hints(Snapshot s, InlayHintParams params) {
        List<InlayHint> out = new ArrayList<>();
        try {
            for (MethodMark m : s.marks(params.getTextDocument().getUri())) {
                if (!Lsp.overlaps(m.nameRange(), params.getRange())) {
                    continue;
                }
                InlayHint h = new InlayHint(new Position(m.nameRange().startLine(), m.nameRange().startColumn()),
                        Either.forLeft(m.access() == Access.WRITE ? "W" : "R"));
                h.setPaddingRight(true);
                h.setTooltip(Either.forRight(new MarkupContent(MarkupKind.MARKDOWN, HoverHandler.explain(m))));
                out.add(h);
            }
        } catch (RuntimeException e) {
            CumulusLanguageServer.LOG.log(Level.WARNING, "inlay hints", e);
            return List.of();
        }
        return out;
    }
}
