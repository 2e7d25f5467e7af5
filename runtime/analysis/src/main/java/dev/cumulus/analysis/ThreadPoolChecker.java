package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CUM203 (single-VM mode): program code makes a JDK thread pool ({@code Executors.new*}, {@code new
 * ThreadPoolExecutor}, {@code new ForkJoinPool}, the common pool). Its threads are made inside JDK code, which is not
 * woven, so they all run on the node that made the pool. At most one finding per line of a method.
 */
final class ThreadPoolChecker implements RuleChecker {
    private static final Set<String> POOL_CLASSES = Set.of("java/util/concurrent/ThreadPoolExecutor",
            "java/util/concurrent/ScheduledThreadPoolExecutor", "java/util/concurrent/ForkJoinPool");

    private final SingleVmFacts facts;
    private final ClassIndex index;

    ThreadPoolChecker(ClassIndex index, SingleVmFacts facts) {
        this.index = index;
        this.facts = facts;
    }

    @Override
    public Rule rule() {
        return Rules.CUM203;
    }

    @Override
    public void check(ClassInfo c, List<Finding> out) {
        if (!facts.isProgram(c)) {
            return;
        }
        for (MethodInfo m : c.methods) {
            Set<Integer> reported = new HashSet<>();
            for (Event e : index.facts(m).events) {
                if (e instanceof InvokeEvent ie && !reported.contains(ie.line())) {
                    String pool = pool(ie);
                    if (pool != null) {
                        reported.add(ie.line());
                        out.add(onMethod(c, m, ie.line(), "method '" + m.name + "' makes a JDK thread pool ("
                                + pool + "): its threads all run on the node that made it, never on the others",
                                List.of()));
                    }
                }
            }
        }
    }

    /** How the call makes a pool ({@code Executors.newFixedThreadPool()}), or null if it does not. */
    private static String pool(InvokeEvent ie) {
        String owner = ie.owner();
        String name = ie.name();
        if (owner.equals("java/util/concurrent/Executors") && name.startsWith("new")) {
            return "Executors." + name + "()";
        }
        if (POOL_CLASSES.contains(owner) && name.equals("<init>")) {
            return "new " + ClassInfo.display(owner) + "()";
        }
        if (owner.equals("java/util/concurrent/ForkJoinPool") && name.equals("commonPool")) {
            return "ForkJoinPool.commonPool()";
        }
        return null;
    }
}
