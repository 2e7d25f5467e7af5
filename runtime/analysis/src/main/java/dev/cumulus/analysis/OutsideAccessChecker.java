package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.FieldEvent;
import java.lang.classfile.Opcode;
import java.util.List;

/**
 * CUM106: fields of cloud classes are read and written only by cloud code. Reported on every {@code GETFIELD} or
 * {@code PUTFIELD} in a non-cloud class whose field (declared or inherited) belongs to a cloud class.
 */
final class OutsideAccessChecker implements RuleChecker {
    private final ClassIndex index;

    OutsideAccessChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM106;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (index.isCloud(c.name)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            for (Event e : index.facts(m).events) {
                if (e instanceof FieldEvent fe && (fe.opcode() == Opcode.GETFIELD || fe.opcode() == Opcode.PUTFIELD)) {
                    index.resolveField(fe.owner(), fe.name()).filter(r -> index.isCloud(r.decl().name)).ifPresent(r ->
                            out.add(onMethod(c, m, fe.line(), "method '" + m.name + "' "
                                    + (fe.opcode() == Opcode.GETFIELD ? "reads" : "writes") + " field '"
                                    + r.decl().simpleName() + "." + fe.name() + "' of a cloud object from outside "
                                    + "the cloud", List.of(new RelatedLocation(r.decl().name, fe.name(),
                                    r.decl().sourceFile, index.fieldLine(r.decl(), fe.name()), "the cloud field")))));
                }
            }
        }
    }
}
