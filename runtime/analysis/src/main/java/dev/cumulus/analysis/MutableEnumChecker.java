package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.FieldEvent;
import java.lang.classfile.Opcode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CUM204 (single-VM mode): a program enum (or an enum constant's body) declares a non-final field. Enums are not
 * shared classes: every node runs the enum's initializer and has its own constants, and a constant moves between
 * nodes by name, so what one node writes to such a field the others never see. Reported on the field, when code other
 * than the enum's constructors and static initializer writes it (a field only they set is the same on every node).
 */
final class MutableEnumChecker implements RuleChecker {
    private static final String ENUM = "java/lang/Enum";

    private final ClassIndex index;
    private final SingleVmFacts facts;
    private Set<String> written;

    MutableEnumChecker(ClassIndex index, SingleVmFacts facts) {
        this.index = index;
        this.facts = facts;
    }

    /**
     * The enum fields ({@code Enum.field}) some code writes other than the enum's own constructors and static
     * initializer (a constant body's included): a field only they set holds the same value on every node.
     */
    private Set<String> writtenAfterInitialization() {
        if (written == null) {
            written = new HashSet<>();
            for (String name : index.allNames()) {
                index.info(name).ifPresent(k -> {
                    for (MethodInfo m : k.methods) {
                        for (Event e : index.facts(m).events) {
                            if (e instanceof FieldEvent fe && (fe.opcode() == Opcode.PUTFIELD
                                    || fe.opcode() == Opcode.PUTSTATIC)) {
                                index.resolveField(fe.owner(), fe.name())
                                        .filter(r -> index.isSubtype(r.decl().name, ENUM))
                                        .filter(r -> !initializes(m, r.decl().name))
                                        .ifPresent(r -> written.add(r.decl().name + '.' + r.field().name()));
                            }
                        }
                    }
                });
            }
        }
        return written;
    }

    /** Whether {@code m} is a constructor or static initializer of {@code enumName} or of a constant's body. */
    private boolean initializes(MethodInfo m, String enumName) {
        return (m.name.equals("<init>") || m.name.equals("<clinit>"))
                && (m.owner.name.equals(enumName) || index.isSubtype(m.owner.name, enumName));
    }

    @Override
    public Rule rule() {
        return Rules.CUM204;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!facts.isProgram(c) || c.name.equals(ENUM) || !index.isSubtype(c.name, ENUM)) {
            return;
        }
        for (FieldInfo f : c.fields) {
            if (!f.isFinal() && !f.isSynthetic() && writtenAfterInitialization().contains(c.name + '.' + f.name())) {
                String what = f.isStatic() ? "static field '" + f.name() + "' of enum " + ClassInfo.display(c.name)
                        + " is per node: with --single-vm each node runs the enum's initializer and has its own copy"
                        : "field '" + f.name() + "' of enum " + ClassInfo.display(c.name) + " is per node: with "
                        + "--single-vm each node has its own enum constants";
                out.add(onField(c, f, index.fieldLine(c, f.name()), what
                        + ", so a value written on one node is not seen by threads on the others"));
            }
        }
    }
}
