package dev.cumulus.internal.cloud;


import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The static entry points the Cumulus agent weaves into cloud classes ({@code Cloud.Root} or {@code Cloud.Node}
 * implementations). Every hook delegates to the installed {@link CloudDispatcher}; until the cloud runtime installs
 * one, the original code runs unchanged.
 *
 * <p>What is woven where (write prologue, read restart handler, open-read counting, {@code wait}/{@code notify}
 * replacement) is in docs/design/AGENT.md. The agent adds no fields or methods, so loaded classes can be
 * retransformed. Program code the JVM runs outside the bytecode (a debugger's expression, a JVMTI callback) is
 * assumed not to call cloud writes.
 */
public final class CloudHooks {
    /** Returned by {@link #beforeWrite} when the original body should run here. */
    public static final Object PROCEED = new Object();

    private static volatile CloudDispatcher dispatcher = CloudDispatcher.PASS_THROUGH;
    private static final Map<String, String> REFUSALS = new ConcurrentHashMap<>();
    private static final Set<String> WOVEN = ConcurrentHashMap.newKeySet();
    /** Per defining loader (weakly: a loader that goes away takes its entry along), the wait-free cloud classes. */
    private static final Map<ClassLoader, Set<String>> WAIT_FREE = new WeakHashMap<>();

    private CloudHooks() {
    }

    /** Installs the runtime's dispatcher (one per JVM; the cloud runtime keeps per-node state inside it). */
    public static void install(CloudDispatcher d) {
        dispatcher = d == null ? CloudDispatcher.PASS_THROUGH : d;
    }

    public static CloudDispatcher dispatcher() {
        return dispatcher;
    }

    /** Called by the agent when it starts (premain or agentmain); {@link AgentLoader} keeps the fact. */
    public static void markAgentInstalled() {
        AgentLoader.markInstalled();
    }

    /** True once the agent runs in this JVM, i.e. cloud classes loaded from now on are woven. */
    public static boolean agentInstalled() {
        return AgentLoader.installed();
    }

    /** The agent refused {@code className}; the runtime then refuses to replicate it even if it was loaded before. */
    public static void recordRefusal(String className, String message) {
        REFUSALS.put(className, message);
    }

    /** Called by the agent for every cloud class it checked and woven (or found nothing to weave in). */
    public static void recordWoven(String className) {
        WOVEN.add(className);
    }

    /**
     * Called by the agent for a cloud class that cannot wait, whatever it calls: no {@code wait()} and no reference to
     * classes but itself, the JDK's and the cloud API (so no other cloud class with a {@code wait()} is loaded in the
     * middle of a write). A caller waiting for a reply may apply its writes.
     */
    public static void recordWaitFree(ClassLoader loader, String className) {
        synchronized (WAIT_FREE) {
            WAIT_FREE.computeIfAbsent(loader, l -> new HashSet<>()).add(className);
        }
    }

    /** True when the agent found {@code type} wait-free ({@link #recordWaitFree}), as its class loader defined it. */
    public static boolean isWaitFree(Class<?> type) {
        synchronized (WAIT_FREE) {
            Set<String> names = WAIT_FREE.get(type.getClassLoader());
            return names != null && names.contains(type.getName());
        }
    }

    /** True when the agent checked and wove {@code className}: its writes will be replicated. */
    public static boolean isWoven(String className) {
        return WOVEN.contains(className);
    }

    /** The agent's refusal message for {@code className}, or {@code null}. */
    public static String refusalOf(String className) {
        return REFUSALS.get(className);
    }

    /** Per thread: how many woven reads that call out are running on it (a one-element array, bumped in place). */
    private static final ThreadLocal<int[]> OPEN_READS = ThreadLocal.withInitial(() -> new int[1]);

    /** A read that calls out starts on this thread; returns the counter that {@link #exitRead} takes. */
    public static int[] enterRead() {
        int[] open = OPEN_READS.get();
        open[0]++;
        return open;
    }

    /**
     * The read {@link #enterRead} counted ends (returns, throws, or restarts as a write). Setting the count back to
     * {@code before} rather than decrementing makes a second exit harmless (a return that throws, e.g. on an
     * unbalanced monitor, also runs the catch-all's exit) and repairs an over-count an inner read left.
     */
    public static void exitRead(int[] open, int before) {
        open[0] = before;
    }

    /**
     * How many woven reads that call out run on this thread. 0 means no read method of a cloud class is on the stack
     * (one that calls nothing cannot be below another frame). It may over-count (a {@code StackOverflowError} in an
     * exit, a debugger popping frames), costing a stack walk until the enclosing read ends; it never under-counts.
     */
    public static int openReads() {
        return OPEN_READS.get()[0];
    }

    public static Object beforeWrite(Object self, String methodKey, Object[] args) throws Throwable {
        return dispatcher.beforeWrite(self, methodKey, args);
    }

    public static Object restartAsWrite(Object self, String methodKey, Object[] args, RestartAsWrite signal)
        throws Throwable {
        return dispatcher.restartAsWrite(self, methodKey, args, signal);
    }

    public static void await(Object monitor) throws InterruptedException {
        dispatcher.await(monitor, 0, 0);
    }

    public static void await(Object monitor, long millis) throws InterruptedException {
        dispatcher.await(monitor, millis, 0);
    }

    public static void await(Object monitor, long millis, int nanos) throws InterruptedException {
        dispatcher.await(monitor, millis, nanos);
    }

    public static void notify(Object monitor) {
        dispatcher.notify(monitor, false);
    }

    public static void notifyAll(Object monitor) {
        dispatcher.notify(monitor, true);
    }
}
