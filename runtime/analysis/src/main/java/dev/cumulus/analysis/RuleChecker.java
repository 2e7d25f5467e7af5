package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import java.util.List;
import java.util.Set;

/**
 * The check of one rule of the catalogue ({@link Rules}). A checker gets the shared facts ({@link ClassIndex}, and
 * the {@link Classifier} if it needs it) when it is made, may cache facts of its own rule (computed once per analyzer),
 * and reports only findings of its rule, located in the class it is given. {@link Engine} runs the checkers in rule
 * id order.
 */
interface RuleChecker {

    /** The rule whose findings this checker reports. */
    Rule rule();

    /** Adds the findings of this rule located in class {@code c} (any class of the source, cloud or not) to out. */
    void check(ClassInfo c, List<Finding> out);

    /**
     * Rules that take precedence on the same member: a finding of this checker is dropped when the member (field or
     * method, matched by name and descriptor) already has a finding of one of these rules. Each member gets one finding
     * about its declared type, the most specific one (a remote type is reported as CUM103, not also as CUM109). The
     * rules named here must come earlier in id order.
     */
    default Set<Rule> yieldsTo() {
        return Set.of();
    }

    /** A finding on the whole class, at the class line. */
    default Finding onClass(ClassInfo c, String message) {
        return new Finding(rule().id(), rule().severity(), c.name, null, null, c.sourceFile, c.classLine(), message,
                rule().fixHint(), List.of());
    }

    /** A finding on a field of class {@code c}. */
    default Finding onField(ClassInfo c, FieldInfo f, int line, String message) {
        return new Finding(rule().id(), rule().severity(), c.name, f.name(), f.desc(), c.sourceFile, line, message,
                rule().fixHint(), List.of());
    }

    /** A finding on a method of class {@code c}, at a line of it. */
    default Finding onMethod(ClassInfo c, MethodInfo m, int line, String message, List<RelatedLocation> related) {
        return new Finding(rule().id(), rule().severity(), c.name, m.name, m.desc, c.sourceFile, line, message,
                rule().fixHint(), related);
    }
}
