package dev.cumulus.lsp;

import dev.cumulus.analysis.Access;
import dev.cumulus.lsp.model.MethodMark;
import dev.cumulus.lsp.model.Snapshot;
import java.util.logging.Level;
import org.eclipse.lsp4j.Hover;
import org.eclipse.lsp4j.HoverParams;
import org.eclipse.lsp4j.MarkupContent;
import org.eclipse.lsp4j.MarkupKind;

/** {@code textDocument/hover} on a cloud method's name: read or write, and why (the analyzer's reason chain). */
final class HoverHandler {

    /** The hover, or {@code null} if the position is not on a cloud method's name. */
    Hover hover(Snapshot s, HoverParams params) {
        try {
            int line = params.getPosition().getLine();
            int col = params.getPosition().getCharacter();
            for (MethodMark m : s.marks(params.getTextDocument().getUri())) {
                if (m.nameRange().contains(line, col)) {
                    return new Hover(new MarkupContent(MarkupKind.MARKDOWN, explain(m)), Lsp.range(m.nameRange()));
                }
            }
        } catch (RuntimeException e) {
            CumulusLanguageServer.LOG.log(Level.WARNING, "hover", e);
        }
        return null;
    }

    /** Markdown: the classification, what it means at run time, and the chain down to the write. */
    static String explain(MethodMark m) {
        if (m.access() == Access.READ) {
            return "**read** `" + m.methodName() + "`: runs on the local replica, no communication.\n\n"
                    + "It assigns no cloud field or array element, calls no `notify`/`notifyAll` and no write method.";
        }
        StringBuilder b = new StringBuilder("**write** `").append(m.methodName())
                .append("`: every call is broadcast to all replicas in one total order.\n\nWhy:");
        String sep = " ";
        for (String step : m.reasonChain()) {
            b.append(sep).append('`').append(step).append('`');
            sep = " → ";
        }
        return b.toString();
    }
}
