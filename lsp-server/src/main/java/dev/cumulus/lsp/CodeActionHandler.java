package dev.cumulus.lsp;

import dev.cumulus.lsp.model.Problem;
import dev.cumulus.lsp.model.QuickFixes;
import dev.cumulus.lsp.model.Snapshot;
import dev.cumulus.lsp.model.SourceIndex;
import dev.cumulus.lsp.model.Workspace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import java.util.Optional;
import java.util.logging.Level;
import org.eclipse.lsp4j.CodeAction;
import org.eclipse.lsp4j.CodeActionKind;
import org.eclipse.lsp4j.CodeActionParams;
import org.eclipse.lsp4j.Command;
import org.eclipse.lsp4j.TextEdit;
import org.eclipse.lsp4j.WorkspaceEdit;
import org.eclipse.lsp4j.jsonrpc.messages.Either;

/**
 * {@code textDocument/codeAction}: quick fixes for the findings in the requested range where the fix is mechanical
 * ({@link QuickFixes}). Only offered when the analysed text is the document's current version, so edits land where
 * they should.
 */
final class CodeActionHandler {
    private final DiagnosticsHandler diagnostics;

    CodeActionHandler(DiagnosticsHandler diagnostics) {
        this.diagnostics = diagnostics;
    }

    List<Either<Command, CodeAction>> actions(Snapshot s, Workspace.OpenDocument doc, CodeActionParams params) {
        List<Either<Command, CodeAction>> out = new ArrayList<>();
        try {
            String uri = params.getTextDocument().getUri();
            String key = Workspace.normalize(uri);
            SourceIndex idx = s.index(uri);
            Integer version = s.versions().get(key);
            if (doc == null || idx == null || version == null || version != doc.version()) {
                return out;
            }
            List<String> only = params.getContext() == null ? null : params.getContext().getOnly();
            if (only != null && !only.isEmpty() && only.stream().noneMatch(k -> k.startsWith(CodeActionKind.QuickFix))) {
                return out;
            }
            for (Problem p : s.problems(uri)) {
                if (!Lsp.overlaps(p.range(), params.getRange())) {
                    continue;
                }
                Optional<QuickFixes.Fix> fix = QuickFixes.fixFor(idx, p);
                if (fix.isEmpty()) {
                    continue;
                }
                List<TextEdit> edits = fix.get().edits().stream()
                        .map(e -> new TextEdit(Lsp.range(e.range()), e.newText())).toList();
                CodeAction a = new CodeAction(fix.get().title());
                a.setKind(CodeActionKind.QuickFix);
                a.setDiagnostics(List.of(diagnostics.diagnostic(p)));
                a.setIsPreferred(true);
                a.setEdit(new WorkspaceEdit(Map.of(doc.clientUri(), edits)));
                out.add(Either.forRight(a));
            }
        } catch (RuntimeException e) {
            CumulusLanguageServer.LOG.log(Level.WARNING, "code actions", e);
            return List.of();
        }
        return out;
    }

}
