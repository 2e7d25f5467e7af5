package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.util.Map;
import java.util.Set;

/**
 * CUM207 (single-VM mode): program code makes a handle that reaches fields or array elements directly, past the woven
 * code: a {@code VarHandle}, a field getter or setter method handle, an array element handle or an
 * {@code Atomic*FieldUpdater}. At most one finding per line of a method.
 */
final class FieldHandleChecker extends ProgramCallChecker {
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

    FieldHandleChecker(ClassIndex index, SingleVmFacts facts) {
        super(index, facts);
    }

    @Override
    public Rule rule() {
        return Rules.CUM207;
    }

    @Override
    String finding(MethodInfo m, InvokeEvent call) {
        if (!MAKERS.getOrDefault(call.owner(), Set.of()).contains(call.name())) {
            return null;
        }
        return "method '" + m.name + "' makes a handle on fields or array elements (" + ClassInfo.display(call.owner())
                + "." + call.name() + "()): it reads and writes past the shared heap, so on another node's copy it "
                + "reads stale values and its writes never reach the home";
    }
}
