package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.util.Set;

/**
 * CUM203 (single-VM mode): program code makes a JDK thread pool ({@code Executors.new*}, {@code new
 * ThreadPoolExecutor}, {@code new ForkJoinPool}, the common pool). Its threads are made inside JDK code, which is not
 * woven, so they all run on the node that made the pool. At most one finding per line of a method.
 */
final class ThreadPoolChecker extends ProgramCallChecker {
    private static final Set<String> POOL_CLASSES = Set.of("java/util/concurrent/ThreadPoolExecutor",
            "java/util/concurrent/ScheduledThreadPoolExecutor", "java/util/concurrent/ForkJoinPool");

    ThreadPoolChecker(ClassIndex index, SingleVmFacts facts) {
        super(index, facts);
    }

    @Override
    public Rule rule() {
        return Rules.CUM203;
    }

    @Override
    String finding(MethodInfo m, InvokeEvent call) {
        String pool = pool(call);
        return pool == null ? null : "method '" + m.name + "' makes a JDK thread pool (" + pool + "): its threads all "
                + "run on the node that made it, never on the others";
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
