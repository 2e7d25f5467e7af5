package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * CUM207 (single-VM mode): program code makes a handle that reaches fields or array elements directly, past the woven
 * code: a {@code VarHandle}, a field getter or setter method handle, an array element handle or an
 * {@code Atomic*FieldUpdater}. At most one finding per line of a method.
 */
final class FieldHandleChecker implements RuleChecker {
    /** The makers by owner: each name the owner's method that makes one. */
    private static final Map<String, Set<String>> MAKERS = Map.of(
            "java/lang/invoke/MethodHandles$Lookup", Set.of("findVarHandle", "findStaticVarHandle",
                    "unreflectVarHandle", "findGetter", "findSetter", "findStaticGetter", "findStaticSetter",
                    "unreflectGetter", "unreflectSetter"),
            "java/lang/invoke/MethodHandles", Set.of("arrayElementVarHandle", "arrayElementGetter",
                    "arrayElementSetter"),
            "java/util/concurrent/atomic/AtomicIntegerFieldUpdater", Set.of("newUpdater"),
            "java/util/concurrent/atomic/AtomicLongFieldUpdater", Set.of("newUpdater"),
            "java/util/concurrent/atomic/AtomicReferenceFieldUpdater", Set.of("newUpdater"));

    private final SingleVmFacts facts;
    private final ClassIndex index;

    FieldHandleChecker(ClassIndex index, SingleVmFacts facts) {
        this.index = index;
        this.facts = facts;
    }

    @Override
    public Rule rule() {
        return Rules.CUM207;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!facts.isProgram(c)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            Set<Integer> reported = new HashSet<>();
            for (Event e : index.facts(m).events) {
                if (e instanceof InvokeEvent ie && !reported.contains(ie.line())
                        && MAKERS.getOrDefault(ie.owner(), Set.of()).contains(ie.name())) {
                    reported.add(ie.line());
                    out.add(onMethod(c, m, ie.line(), "method '" + m.name + "' makes a handle on fields or array "
                            + "elements (" + ClassInfo.display(ie.owner()) + "." + ie.name() + "()): it reads and "
                            + "writes past the shared heap, so on another node's copy it reads stale values and its "
                            + "writes never reach the home", List.of()));
                }
            }
        }
    }
}
