package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CUM205 (single-VM mode): a program interface has a static field whose type is not an immutable value. Interfaces
 * are not shared classes: every node runs the interface's initializer and has its own copies of its fields, so an
 * array or a mutable object held there and written on one node is not seen on the others. Immutable values
 * (primitives, {@code String}, boxes, {@code Class}, the JDK's immutable value classes, enums, and records whose
 * components are all such values) are equal on every node and are not reported, nor are fields declared as a JDK
 * interface ({@code List}, {@code Map}: nearly always {@code List.of(...)} and the like, right per node) or holding a
 * {@code Pattern} or an {@code Optional}.
 */
final class InterfaceStateChecker implements RuleChecker {
    private static final String CLASS = "java/lang/Class";
    /**
     * Immutable JDK classes an interface constant commonly holds. Unlike the values of {@link Catalog#JDK_IMMUTABLE}
     * they do not move between nodes (a class's static field holding one would fail on another node), so a copy per
     * node, as an interface gives, is the right place for them.
     */
    private static final Set<String> IMMUTABLE_JDK_HELD = Set.of("java/util/regex/Pattern", "java/util/Optional",
            "java/util/OptionalInt", "java/util/OptionalLong", "java/util/OptionalDouble");

    private final ClassIndex index;
    private final SingleVmFacts facts;

    InterfaceStateChecker(ClassIndex index, SingleVmFacts facts) {
        this.index = index;
        this.facts = facts;
    }

    @Override
    public Rule rule() {
        return Rules.CUM205;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!facts.isProgram(c) || !c.isInterface) {
            return;
        }
        for (FieldInfo f : c.fields) {
            if (f.isStatic() && !f.isSynthetic() && !immutable(f.desc(), new HashSet<>())) {
                String type = ClassInfo.display(ClassInfo.stripL(f.desc()));
                out.add(onField(c, f, index.fieldLine(c, f.name()), "static field '" + f.name() + "' of interface "
                        + ClassInfo.display(c.name) + " is of type " + type + ", which is not an immutable value: "
                        + "with --single-vm each node runs the interface's initializer and has its own copy, so what "
                        + "one node writes to it is not seen by threads on the others"));
            }
        }
    }

    /**
     * A JDK interface type ({@code List}, {@code Map}, {@code Comparator}): the declared type does not tell, and an
     * interface constant of one nearly always holds an immutable value ({@code List.of(...)}, a comparator), which
     * is right per node (moved to a class, it could not leave its node). Not reported.
     */
    private static boolean isJdkInterface(String internalName) {
        if (!internalName.startsWith("java/")) {
            return false;
        }
        try {
            return Class.forName(internalName.replace('/', '.'), false, ClassLoader.getPlatformClassLoader())
                    .isInterface();
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    /** Whether a value of this field descriptor is immutable; {@code seen} guards against recursive records. */
    private boolean immutable(String desc, Set<String> seen) {
        if (desc.length() == 1) {
            return true;
        }
        if (!desc.startsWith("L")) {
            return false;
        }
        String n = ClassInfo.stripL(desc);
        if (n.equals("java/lang/String") || n.equals(CLASS) || Catalog.BOXES.contains(n)
                || Catalog.JDK_IMMUTABLE.contains(n) || IMMUTABLE_JDK_HELD.contains(n) || index.isEnum(n)
                || isJdkInterface(n)) {
            return true;
        }
        if (!index.isRecord(n)) {
            return false;
        }
        if (!seen.add(n)) {
            return true; // a record that holds itself: immutable if its other components are
        }
        return index.info(n).orElseThrow().fields.stream().filter(f -> !f.isStatic())
                .allMatch(f -> immutable(f.desc(), seen));
    }
}
