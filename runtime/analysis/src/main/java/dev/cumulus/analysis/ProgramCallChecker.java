package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A single-VM rule reported where the program's own code makes a call the rule names (a JDK thread pool, a handle on
 * fields): at most one finding per line of a method, in program classes only.
 */
abstract class ProgramCallChecker implements RuleChecker {
    private final ClassIndex index;
    private final SingleVmFacts facts;

    ProgramCallChecker(ClassIndex index, SingleVmFacts facts) {
        this.index = index;
        this.facts = facts;
    }

    /** The finding's message for call {@code call} in method {@code m}, or null when the rule does not name it. */
    abstract String finding(MethodInfo m, InvokeEvent call);

    @Override
    public final void check(ClassInfo c, List<Finding> out) {
        if (!facts.isProgram(c)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            Set<Integer> reported = new HashSet<>();
            for (Event e : index.facts(m).events) {
                if (e instanceof InvokeEvent ie && !reported.contains(ie.line())) {
                    String message = finding(m, ie);
                    if (message != null) {
                        reported.add(ie.line());
                        out.add(onMethod(c, m, ie.line(), message, List.of()));
                    }
                }
            }
        }
    }
}
