package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import dev.cumulus.analysis.MethodFacts.MonitorEvent;
import dev.cumulus.analysis.MethodFacts.Value;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CUM206 (single-VM mode): program code synchronizes on, or calls {@code wait}/{@code notify}/{@code notifyAll} of,
 * a JDK value whose monitor threads on different nodes cannot share: a {@code String} or a boxed primitive (moved
 * between nodes by value, so each node has its own object) or a JDK class's {@code Class} (whose monitor is
 * node-local). Only what the bytecode shows for sure is reported: the value's static type is {@code String} or a
 * box (a string literal, {@code Integer.valueOf(...)}, a field, local or result of such a type), or it is a JDK class
 * literal. A plain {@code Object}, an array and program objects have cluster-wide monitors. At most one finding per
 * line of a method.
 */
final class JdkLockChecker implements RuleChecker {
    private static final Set<String> WAIT_NOTIFY = Set.of("wait()V", "wait(J)V", "wait(JI)V", "notify()V",
            "notifyAll()V");

    private final ClassIndex index;
    private final SingleVmFacts facts;

    JdkLockChecker(ClassIndex index, SingleVmFacts facts) {
        this.index = index;
        this.facts = facts;
    }

    @Override
    public Rule rule() {
        return Rules.CUM206;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!facts.isProgram(c)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            Set<Integer> reported = new HashSet<>();
            for (Event e : index.facts(m).events) {
                Value lock = switch (e) {
                    case MonitorEvent me -> me.lock();
                    case InvokeEvent ie when !ie.viaLambda() && WAIT_NOTIFY.contains(ie.name() + ie.desc()) ->
                            ie.receiver();
                    default -> null;
                };
                String value = lock == null ? null : jdkValue(lock);
                if (value != null && reported.add(e.line())) {
                    String how = e instanceof InvokeEvent ie ? "calls " + ie.name() + "() of " : "synchronizes on ";
                    out.add(onMethod(c, m, e.line(), who(m) + " " + how + value + ", whose monitor is node-local "
                            + "with --single-vm: threads on different nodes neither exclude nor wake each other "
                            + "through it", List.of()));
                }
            }
        }
    }

    /** {@code method 'run'}, or {@code a lambda of Main} for a lambda's synthetic method. */
    private static String who(MethodInfo m) {
        return m.name.startsWith("lambda$") ? "a lambda of " + m.owner.simpleName() : "method '" + m.name + "'";
    }

    /**
     * How a message names the value ({@code a String (moved between nodes by value)}, {@code String.class}), or null
     * if it may have a cluster-wide monitor.
     */
    private String jdkValue(Value v) {
        String lit = v.classLiteral();
        if (lit != null) {
            return index.info(lit).filter(k -> k.fromJdk).map(k -> ClassInfo.display(lit) + ".class").orElse(null);
        }
        String n = v.className();
        if ("java/lang/String".equals(n)) {
            return "a String (moved between nodes by value)";
        }
        if (n != null && Catalog.BOXES.contains(n)) {
            return "a boxed " + ClassInfo.display(n) + " (moved between nodes by value)";
        }
        return null;
    }
}
