package dev.cumulus.analysis;

import java.util.List;
import java.util.Objects;

/**
 * One violated rule at one place.
 *
 * <p>Location: {@code className}/{@code memberName}/{@code memberDescriptor} name the element (class-level findings
 * have a {@code null} member), {@code sourceFile}/{@code line} the reported line. Lines follow one convention, also
 * used by the shared corpus: an instruction-level finding is reported at the line of the offending instruction; a
 * method-level finding (signature types) at the first line of the method's code; a field-level finding at the line of
 * the field's first assignment in a constructor or static initializer of its class (its initializer, if it has one),
 * else at the class line; a class-level finding at the class line, which is the first line of the class's first
 * constructor (for an implicit constructor javac uses the line of the class declaration). Editors should map by
 * member name and descriptor rather than by line.
 *
 * @param ruleId           stable rule id, {@code CUM101}…{@code CUM120}; see {@link Rules}
 * @param severity         error or warning
 * @param className        internal name of the class where the finding is located ({@code dev/example/Foo})
 * @param memberName       field or method name, or {@code null} for a class-level finding
 * @param memberDescriptor field or method descriptor, or {@code null} for a class-level finding
 * @param sourceFile       the class's {@code SourceFile} attribute, or {@code null} if the class has none
 * @param line             1-based line, {@code -1} when unknown
 * @param message          what is wrong, one sentence without the fix
 * @param fixHint          one line saying what to do (usually the rule's hint)
 * @param related          further locations that explain the finding; never {@code null}
 */
public record Finding(String ruleId, Severity severity, String className, String memberName, String memberDescriptor,
                      String sourceFile, int line, String message, String fixHint, List<RelatedLocation> related) {
    public Finding {
        Objects.requireNonNull(ruleId, "ruleId");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(className, "className");
        Objects.requireNonNull(message, "message");
        related = related == null ? List.of() : List.copyOf(related);
    }

    /** The class name with dots ({@code dev.example.Foo}; nested classes keep their {@code $}). */
    public String dottedClassName() {
        return className.replace('/', '.');
    }
}
