package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.FieldEvent;
import java.lang.classfile.Opcode;
import java.util.List;

/**
 * CUM106: fields of cloud classes are read and written only by cloud code. An error on every {@code GETFIELD} or
 * {@code PUTFIELD} in a non-cloud class whose field (declared or inherited) belongs to a cloud class; a warning at
 * every public or protected instance field of a cloud class, which invites such accesses before any is written.
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
            for (FieldInfo f : c.fields) {
                if ((f.isPublic() || f.isProtected()) && !f.isStatic() && !f.isSynthetic()) {
                    out.add(new Finding(rule().id(), Severity.WARNING, c.name, f.name(), f.desc(), c.sourceFile,
                            index.fieldLine(c, f.name()), "field '" + c.simpleName() + "." + f.name() + "' of a cloud "
                            + "class is " + (f.isPublic() ? "public" : "protected") + ", so code outside the cloud "
                            + "can read or write it without a broadcast", rule().fixHint(), List.of()));
                }
            }
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
