package dev.cumulus.lsp.model;

import dev.cumulus.analysis.Severity;
import java.util.List;

/**
 * A {@link dev.cumulus.analysis.Finding} placed in a source text.
 *
 * @param uri          the document
 * @param range        the precise range (member name, offending call or statement)
 * @param ruleId       {@code CUM104}, ...
 * @param severity     error or warning
 * @param message      the analyzer's message
 * @param fixHint      the analyzer's one-line hint
 * @param reportedLine the analyzer's 1-based line (class-file convention, see {@code Finding})
 * @param className    internal name of the class the finding is in
 * @param memberName   field or method name, or {@code null}
 * @param memberDescriptor descriptor of the member, or {@code null}
 * @param related      further locations in workspace sources
 */
public record Problem(String uri, SourceRange range, String ruleId, Severity severity, String message, String fixHint,
                      int reportedLine, String className, String memberName, String memberDescriptor,
                      List<Related> related) {

    /** A related location in a workspace source. */
    public record Related(String uri, SourceRange range, String message) {
    }

    /** True if the member is a field (its descriptor is not a method descriptor). */
    public boolean onField() {
        return memberDescriptor != null && !memberDescriptor.startsWith("(");
    }
}
