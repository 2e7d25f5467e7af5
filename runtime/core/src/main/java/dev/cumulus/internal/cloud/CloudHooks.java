package dev.cumulus.internal.cloud;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The static entry points the Cumulus agent weaves into cloud classes (classes implementing {@code Cloud.Root} or
 * {@code Cloud.Node}). Every hook delegates to the installed {@link CloudDispatcher}; until the cloud runtime installs
 * one, they let the original code run unchanged.
 *
 * <p>What the agent weaves (and nothing else; it adds no fields or methods, so already-loaded classes can be
 * retransformed):
 * <ul>
 *   <li>at the start of every non-private, non-static, non-abstract, non-bridge method classified <b>write</b>:
 *       {@code Object r = CloudHooks.beforeWrite(this, "name(desc)", new Object[] {params...});
 *       if (r != CloudHooks.PROCEED) return (unboxed, cast) r;}</li>
 *   <li>around the body of every such method classified <b>read</b>: a handler for {@link RestartAsWrite} that
 *       returns {@code CloudHooks.restartAsWrite(this, "name(desc)", new Object[] {original params...}, signal)}
 *       (the original parameter values, saved at entry);</li>
 *   <li>in such a read that calls out (any invoke, {@code new}, static field access, dynamic constant or reference to
 *       another class, so program code may run on top of it): {@code int[] open = CloudHooks.enterRead(); int before
 *       = open[0] - 1;} at entry, and {@link #exitRead exitRead(open, before)} on every way out — each return, the
 *       restart handler (before it calls {@code restartAsWrite}) and a catch-all that rethrows. A read that calls
 *       nothing cannot have a write run on top of it, so it pays nothing: {@link #openReads()} {@code == 0} tells a
 *       write that no read of a cloud is on its thread's stack, and it skips the stack walk that looks for one. What
 *       is not counted: program code that the JVM runs outside the bytecode (a debugger's expression, a JVMTI
 *       agent's callback) is assumed not to call cloud writes;</li>
 *   <li>in every method of a cloud class: {@code Object.wait()/wait(J)/wait(JI)/notify()/notifyAll()} calls
 *       replaced by {@link #await(Object)}, {@link #await(Object, long)}, {@link #await(Object, long, int)},
 *       {@link #notify(Object)}, {@link #notifyAll(Object)}.</li>
 * </ul>
 */
public final class CloudHooks {
    /** Returned by {@link #beforeWrite} when the original body should run here. */
    public static final Object PROCEED = new Object();

    private static volatile CloudDispatcher dispatcher = CloudDispatcher.PASS_THROUGH;
    private static final Map<String, String> REFUSALS = new ConcurrentHashMap<>();
    private static final Set<String> WOVEN = ConcurrentHashMap.newKeySet();
    private static volatile boolean agentInstalled;
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

    /** Called by the agent when it starts (premain or agentmain). */
    public static void markAgentInstalled() {
        agentInstalled = true;
    }

    /** True once the agent runs in this JVM, i.e. cloud classes loaded from now on are woven. */
    public static boolean agentInstalled() {
        return agentInstalled;
    }

    /**
     * Called by the agent when it refuses a cloud class (rule violations); the runtime then refuses to replicate it
     * even when the class was loaded before the agent and so could not be made unusable.
     */
    public static void recordRefusal(String className, String message) {
        REFUSALS.put(className, message);
    }

    /** Called by the agent for every cloud class it checked and woven (or found nothing to weave in). */
    public static void recordWoven(String className) {
        WOVEN.add(className);
    }

    /**
     * Called by the agent for a cloud class whose code cannot wait, whatever it calls: it has no {@code wait()} call
     * and refers to no class but itself, the JDK's and Cumulus's cloud API (so it reaches no other cloud class, which
     * the JVM might load, with a {@code wait()}, in the middle of one of its writes). Its writes may be applied by a
     * caller waiting for a reply.
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
     * The read that {@link #enterRead} counted ends (returns, throws, or restarts as a write): the count goes back to
     * {@code before}, what it was when the read began. Setting rather than decrementing makes a second exit of the
     * same read harmless (a return instruction that throws after its exit, e.g. an unbalanced monitor, runs the
     * catch-all's exit too) and repairs an over-count an inner read left.
     */
    public static void exitRead(int[] open, int before) {
        open[0] = before;
    }

    /**
     * How many woven reads that call out run on this thread now. 0 means no read method of any cloud class is on its
     * stack (one that calls nothing cannot be below another frame). More than 0 may be an over-count (a
     * {@code StackOverflowError} inside an exit in a handler, a debugger popping frames), which costs a stack walk
     * until the enclosing read ends; never an under-count.
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
