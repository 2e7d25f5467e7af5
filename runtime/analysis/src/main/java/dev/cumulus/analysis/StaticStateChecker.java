package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassIndex.ResolvedField;
import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.FieldEvent;
import java.lang.classfile.Opcode;
import java.util.List;
import java.util.Optional;

/**
 * CUM104: no mutable static state in cloud classes (a non-final static field, or a static final of a mutable type), and
 * no read or write of another class's mutable static from cloud code. Mutable types: arrays, known mutable JDK types,
 * cloud classes, and user classes with a non-final instance field; interfaces and other JDK types are trusted.
 */
final class StaticStateChecker implements RuleChecker {
    private final ClassIndex index;

    StaticStateChecker(ClassIndex index) {
        this.index = index;
    }

    @Override
    public Rule rule() {
        return Rules.CUM104;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!index.isCloud(c.name)) {
            return;
        }
        for (FieldInfo f : c.fields) {
            if (f.isSynthetic() || !f.isStatic()) {
                continue;
            }
            if (!f.isFinal()) {
                out.add(onField(c, f, index.fieldLine(c, f.name()), "static field '" + f.name()
                        + "' is mutable state shared by all replicas"));
            } else if (isMutableType(f.desc())) {
                out.add(onField(c, f, index.fieldLine(c, f.name()), "static final field '" + f.name()
                        + "' holds a mutable " + ClassInfo.display(f.desc().startsWith("L") ? ClassInfo.stripL(f.desc())
                        : f.desc()) + " shared by all replicas"));
            }
        }
        for (MethodInfo m : c.methods) {
            for (Event e : index.facts(m).events) {
                if (e instanceof FieldEvent fe && (fe.opcode() == Opcode.GETSTATIC || fe.opcode() == Opcode.PUTSTATIC)) {
                    Optional<ResolvedField> r = index.resolveField(fe.owner(), fe.name());
                    if (r.isPresent() && !r.get().decl().name.equals(c.name) && !r.get().field().isSynthetic()
                            && (!r.get().field().isFinal() || isMutableType(r.get().field().desc()))) {
                        ClassInfo d = r.get().decl();
                        out.add(onMethod(c, m, fe.line(), "method '" + m.name + "' "
                                + (fe.opcode() == Opcode.GETSTATIC ? "reads" : "writes") + " mutable static field '"
                                + d.simpleName() + "." + fe.name() + "'",
                                List.of(new RelatedLocation(d.name, fe.name(), d.sourceFile,
                                        index.fieldLine(d, fe.name()), "the static field"))));
                    }
                }
            }
        }
    }

    /** A type whose static final fields are still mutable state. */
    private boolean isMutableType(String desc) {
        if (desc.startsWith("[")) {
            return true;
        }
        if (!desc.startsWith("L")) {
            return false;
        }
        String n = ClassInfo.stripL(desc);
        if (Catalog.isKnownMutableJdkType(n) || index.isCloud(n)) {
            return true;
        }
        Optional<ClassInfo> c = index.info(n);
        if (c.isEmpty() || c.get().fromJdk || c.get().isEnum || c.get().isRecord || c.get().isInterface) {
            return false;
        }
        for (String t : index.supertypes(n)) {
            for (FieldInfo f : index.info(t).map(x -> x.fields).orElse(List.of())) {
                if (!f.isStatic() && !f.isFinal()) {
                    return true;
                }
            }
        }
        return false;
    }
}
