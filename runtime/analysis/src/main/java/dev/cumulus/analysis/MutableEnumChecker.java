package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import java.util.List;

/**
 * CUM204 (single-VM mode): a program enum (or an enum constant's body) declares a non-final field. Enums are not
 * shared classes: every node runs the enum's initializer and has its own constants, and a constant moves between
 * nodes by name, so what one node writes to such a field the others never see. Reported on the field.
 */
final class MutableEnumChecker implements RuleChecker {
    private static final String ENUM = "java/lang/Enum";

    private final ClassIndex index;
    private final SingleVmFacts facts;

    MutableEnumChecker(ClassIndex index, SingleVmFacts facts) {
        this.index = index;
        this.facts = facts;
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
            if (!f.isFinal() && !f.isSynthetic()) {
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
