package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import java.util.List;

/**
 * CUM202 (single-VM mode): a program class declares a {@code native} method. Native code reads and writes the
 * objects it is given behind the woven code's back, so the single-VM runtime refuses such a class when it loads.
 */
final class NativeMethodChecker implements RuleChecker {
    private final SingleVmFacts facts;

    NativeMethodChecker(SingleVmFacts facts) {
        this.facts = facts;
    }

    @Override
    public Rule rule() {
        return Rules.CUM202;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!facts.isProgram(c)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            if (m.isNative) {
                out.add(onMethod(c, m, m.reportLine(), "method '" + m.name + "' is native: with --single-vm the "
                        + "class is refused when it loads, as native code cannot run on the shared heap", List.of()));
            }
        }
    }
}
