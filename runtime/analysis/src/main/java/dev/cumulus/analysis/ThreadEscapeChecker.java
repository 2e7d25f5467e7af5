package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import dev.cumulus.analysis.MethodFacts.LambdaEvent;
import dev.cumulus.analysis.MethodFacts.Value;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CUM201 (single-VM mode): a JDK object that cannot leave the node that made it ({@link SingleVmFacts#foreignType})
 * escapes to another thread, which may run on another node. Reported on a program field that holds one (declared
 * with such a type or assigned one) and that code a started thread may run touches; on a call that passes one to the
 * constructor of a thread's task (a program {@code Thread} subclass or {@code Runnable} class); and on a
 * {@code new Thread(runnable)} whose lambda captures one. At most one finding per line of a method.
 */
final class ThreadEscapeChecker implements RuleChecker {
    private final ClassIndex index;
    private final SingleVmFacts facts;

    ThreadEscapeChecker(ClassIndex index, SingleVmFacts facts) {
        this.index = index;
        this.facts = facts;
    }

    @Override
    public Rule rule() {
        return Rules.CUM201;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!facts.isProgram(c)) {
            return;
        }
        for (FieldInfo f : c.fields) {
            String key = c.name + "." + f.name();
            SingleVmFacts.Held held = facts.heldForeign().get(key);
            SingleVmFacts.Touch touch = held == null ? null : facts.touchedByThreads().get(key);
            if (touch != null) {
                MethodInfo m = touch.method();
                int line = held.where() == c ? held.line() : index.fieldLine(c, f.name());
                out.add(onField(c, f, line, "field '" + f.name() + "' holds " + withArticle(ClassInfo.display(held.type()))
                        + ", which cannot leave the node that made it, and thread code touches it ("
                        + label(m) + m.owner.at(touch.line()) + "); with --single-vm that thread may run on "
                        + "another node, where the access fails"));
            }
        }
        for (MethodInfo m : c.methods) {
            Set<Integer> reported = new HashSet<>();
            for (Event e : index.facts(m).events) {
                if (!(e instanceof InvokeEvent ie) || ie.viaLambda() || !ie.name().equals("<init>")
                        || reported.contains(ie.line())) {
                    continue;
                }
                String escaping = null;
                String how = null;
                if (ie.owner().equals(SingleVmFacts.THREAD)) {
                    for (Value a : ie.args()) {
                        LambdaEvent le = a.lambda();
                        if (le != null && le.functionalInterface().equals(SingleVmFacts.RUNNABLE)) {
                            escaping = firstForeign(le.captured());
                            how = "the Runnable given to new Thread() captures";
                        }
                    }
                } else if (facts.isTaskClass(ie.owner())) {
                    escaping = firstForeign(ie.args());
                    how = "new " + ClassInfo.display(ie.owner()) + "() makes a thread's task from";
                }
                if (escaping != null) {
                    reported.add(ie.line());
                    out.add(onMethod(c, m, ie.line(), how + " " + withArticle(ClassInfo.display(escaping)) + ", which cannot "
                            + "leave the node that made it; with --single-vm the thread may run on another node, "
                            + "where reaching it fails", List.of()));
                }
            }
        }
    }

    /** {@code an ArrayList}, {@code a HashMap}: the type's name after the article English gives it. */
    static String withArticle(String type) {
        return ("AEIOU".indexOf(type.isEmpty() ? 'x' : type.charAt(0)) >= 0 ? "an " : "a ") + type;
    }

    /** {@code Worker.run()}, or {@code a lambda of Main} for a lambda's synthetic method. */
    private static String label(MethodInfo m) {
        return m.name.startsWith("lambda$") ? "a lambda of " + m.owner.simpleName() : m.label();
    }

    private String firstForeign(List<Value> values) {
        for (Value v : values) {
            String t = facts.foreignType(v.type());
            if (t != null) {
                return t;
            }
        }
        return null;
    }
}
