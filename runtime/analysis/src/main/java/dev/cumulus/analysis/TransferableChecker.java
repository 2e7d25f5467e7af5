package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.Signatures.Verdict;
import java.lang.classfile.MethodSignature;
import java.lang.classfile.Signature;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CUM108: parameters and results of public root methods are passed by value and must be transferable: primitives,
 * boxes, String, arrays and records of transferables, enums, known collections of transferables,
 * {@code @Transferable} classes, and root types (which arrive as the local replica). One finding per method, for the
 * first type that is not; {@code equals}, {@code hashCode} and {@code toString} are exempt.
 */
final class TransferableChecker implements RuleChecker {
    private final ClassIndex index;

    TransferableChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM108;
    }

    @Override
    public Set<Rule> yieldsTo() {
        return Set.of(Rules.CUM103);
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!index.isRoot(c.name)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            if (!m.isPublic || m.isStatic || m.isSynthetic || m.isBridge || m.isInit() || isObjectMethod(m)) {
                continue;
            }
            MethodSignature ms = MethodSignature.parseFrom(m.genericType());
            List<Signature> types = new ArrayList<>(ms.arguments());
            types.add(ms.result());
            for (Signature s : types) {
                String bad = Signatures.firstBad(s, n -> verdict(n, new HashSet<>()));
                if (bad != null) {
                    out.add(onMethod(c, m, m.reportLine(), "public root method '" + m.name + "' "
                            + (s == ms.result() ? "returns" : "takes a parameter of") + " type '"
                            + ClassInfo.display(bad) + "', which is not transferable", List.of()));
                    break;
                }
            }
        }
    }

    private static boolean isObjectMethod(MethodInfo m) {
        return m.name.equals("equals") && m.desc.equals("(Ljava/lang/Object;)Z")
                || m.name.equals("hashCode") && m.desc.equals("()I")
                || m.name.equals("toString") && m.desc.equals("()Ljava/lang/String;");
    }

    private Verdict verdict(String n, Set<String> seen) {
        if (Catalog.BOXES.contains(n) || n.equals("java/lang/String") || index.isEnum(n) || index.isRoot(n)
                || index.info(n).map(c -> c.annotations.contains(Catalog.TRANSFERABLE)).orElse(false)) {
            return Verdict.OK;
        }
        if (Catalog.COLLECTIONS.contains(n)) {
            return Verdict.CHECK_ARGS;
        }
        if (index.isRecord(n)) {
            if (!seen.add(n)) {
                return Verdict.OK;
            }
            for (FieldInfo f : index.info(n).get().fields) {
                if (!f.isStatic() && Signatures.firstBad(Signature.parseFrom(f.genericType()),
                        x -> verdict(x, seen)) != null) {
                    return Verdict.BAD;
                }
            }
            return Verdict.OK;
        }
        return Verdict.BAD;
    }
}
