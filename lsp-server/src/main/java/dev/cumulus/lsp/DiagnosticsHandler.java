package dev.cumulus.lsp;

import com.google.gson.JsonObject;
import dev.cumulus.analysis.Severity;
import dev.cumulus.lsp.model.CompileError;
import dev.cumulus.lsp.model.Problem;
import dev.cumulus.lsp.model.Snapshot;
import dev.cumulus.lsp.model.Workspace;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import org.eclipse.lsp4j.Diagnostic;
import org.eclipse.lsp4j.DiagnosticRelatedInformation;
import org.eclipse.lsp4j.DiagnosticSeverity;
import org.eclipse.lsp4j.Location;
import org.eclipse.lsp4j.PublishDiagnosticsParams;
import org.eclipse.lsp4j.DiagnosticCodeDescription;

/**
 * {@code textDocument/publishDiagnostics}: one diagnostic per finding in each open document, with {@code code} = rule
 * id, {@code codeDescription.href} = the rule's page, {@code source} = {@code cumulus}, the hint appended to the
 * message, and the finding's related locations. Unless turned off ({@link #javaErrors(boolean)}, when another Java
 * language server reports them for the same files), also the Java compile errors, with the compiler's own message,
 * {@code source} = {@code cumulus} and no code. Compile errors are left out while the Cumulus API is missing from the
 * classpath: then the classpath is not the project's, and every unresolved import would be noise.
 */
final class DiagnosticsHandler {
    static final String SOURCE = "cumulus";

    private final String docsBase;
    private volatile boolean javaErrors = true;

    /** @param docsBase URL prefix of the rule pages; the rule id and {@code .md} are appended */
    DiagnosticsHandler(String docsBase) {
        this.docsBase = docsBase;
    }

    /** Whether Java compile errors are published (the client decides; on by default). */
    void javaErrors(boolean on) {
        javaErrors = on;
    }

    boolean javaErrors() {
        return javaErrors;
    }

    /** Diagnostics for every open document (empty lists clear old ones). */
    List<PublishDiagnosticsParams> publish(Snapshot s, Map<String, Workspace.OpenDocument> open) {
        List<PublishDiagnosticsParams> out = new ArrayList<>();
        open.forEach((uri, doc) -> {
            Integer analysed = s.versions().get(uri);
            if (analysed == null || analysed != doc.version() || !uri.endsWith(".java")) {
                return; // a newer edit is on its way; its analysis will publish
            }
            out.add(new PublishDiagnosticsParams(doc.clientUri(), diagnostics(s, uri), doc.version()));
        });
        return out;
    }

    List<Diagnostic> diagnostics(Snapshot s, String uri) {
        List<Diagnostic> list = new ArrayList<>();
        try {
            if (javaErrors && s.classpath().apiPresent()) {
                for (CompileError e : s.compileErrors(uri)) {
                    list.add(new Diagnostic(Lsp.range(e.range()), e.message(), DiagnosticSeverity.Error, SOURCE));
                }
            }
            for (Problem p : s.problems(uri)) {
                list.add(diagnostic(p));
            }
        } catch (RuntimeException e) {
            CumulusLanguageServer.LOG.log(Level.WARNING, "diagnostics for " + uri, e);
        }
        return list;
    }

    Diagnostic diagnostic(Problem p) {
        Diagnostic d = new Diagnostic(Lsp.range(p.range()), p.message() + (p.fixHint() == null ? "" : " (" + p.fixHint() + ")"),
                p.severity() == Severity.ERROR ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning, SOURCE,
                p.ruleId());
        d.setCodeDescription(new DiagnosticCodeDescription(docsBase + p.ruleId() + ".md"));
        if (!p.related().isEmpty()) {
            List<DiagnosticRelatedInformation> rel = new ArrayList<>();
            for (Problem.Related r : p.related()) {
                rel.add(new DiagnosticRelatedInformation(new Location(r.uri(), Lsp.range(r.range())), r.message()));
            }
            d.setRelatedInformation(rel);
        }
        // the analyzer's own line (class-file convention); clients may ignore it
        JsonObject data = new JsonObject();
        data.addProperty("ruleId", p.ruleId());
        data.addProperty("reportedLine", p.reportedLine());
        d.setData(data);
        return d;
    }
}
