package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.Signatures.Verdict;
import java.lang.classfile.Signature;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CUM109: objects inside a cloud are cloud objects, arrays, immutable values (primitives, boxes, String and a few JDK
 * value classes, enums, records of immutables) or known collections of those. Checked on the instance fields of cloud
 * classes, one finding per field for the first type that is none of these.
 */
final class CloudValueChecker implements RuleChecker {
    private final ClassIndex index;

    CloudValueChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM109;
    }

    @Override
    public Set<Rule> yieldsTo() {
        return Set.of(Rules.CUM103, Rules.CUM105);
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!index.isCloud(c.name)) {
            return;
        }
        for (FieldInfo f : c.fields) {
            if (f.isSynthetic() || f.isStatic()) {
                continue;
            }
            String bad = Signatures.firstBad(Signature.parseFrom(f.genericType()), this::verdict);
            if (bad != null) {
                out.add(onField(c, f, index.fieldLine(c, f.name()), "field '" + f.name() + "' holds type '"
                        + ClassInfo.display(bad) + "', which is neither a cloud object, an array, an immutable value "
                        + "nor a known collection"));
            }
        }
    }

    private Verdict verdict(String n) {
        if (index.isCloud(n) || isImmutable(n, new HashSet<>())) {
            return Verdict.OK;
        }
        return Catalog.COLLECTIONS.contains(n) ? Verdict.CHECK_ARGS : Verdict.BAD;
    }

    private boolean isImmutable(String n, Set<String> seen) {
        if (Catalog.BOXES.contains(n) || Catalog.JDK_IMMUTABLE.contains(n) || index.isEnum(n)) {
            return true;
        }
        if (!index.isRecord(n)) {
            return false;
        }
        if (!seen.add(n)) {
            return true;
        }
        for (FieldInfo f : index.info(n).get().fields) {
            if (!f.isStatic() && !isImmutable(Signature.parseFrom(f.genericType()), seen)) {
                return false;
            }
        }
        return true;
    }

    private boolean isImmutable(Signature s, Set<String> seen) {
        return switch (s) {
            case Signature.BaseTypeSig b -> true;
            case Signature.ArrayTypeSig a -> false;
            case Signature.ClassTypeSig ct -> isImmutable(Signatures.name(ct), seen);
            default -> true; // type variable: unknown
        };
    }
}
