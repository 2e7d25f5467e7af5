package dev.cumulus.internal.cloud;

import dev.cumulus.Cloud;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The JVM-wide {@link CloudDispatcher}: knows which objects are replica roots and of which node's
 * {@link CloudRuntime} (an in-process cluster has several nodes in one JVM), and decides per call whether a write
 * runs here, is shipped through the ordered broadcast, or restarts an enclosing read.
 *
 * <p>Rules, for a write method called on object X:
 * <ol>
 *   <li>on a thread that runs a delivered write (or a plain local write): run it here;</li>
 *   <li>else, if a read method of a cloud root is on the stack: throw {@link RestartAsWrite}, which the outermost
 *       such read catches and re-runs as a replicated write (Manta §3.1);</li>
 *   <li>else, if X is a replica root: ship the call to every replica and return the local result;</li>
 *   <li>else (X is an ordinary object of a cloud class, never replicated): run it here as plain Java.</li>
 * </ol>
 * Rule 2 walks the stack only when {@link CloudHooks#openReads()} is not 0.
 */
final class ReplicaDispatcher implements CloudDispatcher {
    static final ReplicaDispatcher INSTANCE = new ReplicaDispatcher();

    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);
    /** Classes only, no method names: a cheap first look. */
    private static final StackWalker CLASS_WALKER = StackWalker.getInstance(
        Set.of(StackWalker.Option.RETAIN_CLASS_REFERENCE, StackWalker.Option.DROP_METHOD_INFO));
    private final Map<Object, CloudRuntime.Replica> replicas = Collections.synchronizedMap(new IdentityHashMap<>());
    private final ThreadLocal<Boolean> plainWrite = new ThreadLocal<>();

    private ReplicaDispatcher() {
    }

    static void install() {
        if (CloudHooks.dispatcher() != INSTANCE) {
            CloudHooks.install(INSTANCE);
        }
    }

    void register(Object root, CloudRuntime.Replica replica) {
        replicas.put(root, replica);
    }

    void unregister(Object root) {
        replicas.remove(root);
    }

    CloudRuntime.Replica replicaOf(Object root) {
        if (!(root instanceof Cloud.Root)) {
            return null; // every value a call encodes comes here: no lock and no identity hash for the others
        }
        return replicas.get(root);
    }

    private boolean inWriteContext() {
        return CloudRuntime.inDelivery() || plainWrite.get() != null;
    }

    @Override
    public Object beforeWrite(Object self, String methodKey, Object[] args) throws Throwable {
        if (replicas.isEmpty() || inWriteContext()) {
            return CloudHooks.PROCEED; // no replica in this JVM (plain use of cloud classes), or applying a write
        }
        if (CloudHooks.openReads() > 0 && enclosingRootRead(1)) {
            throw new RestartAsWrite(self);
        }
        CloudRuntime.Replica replica = replicas.get(self);
        if (replica != null) {
            return replica.runtime().ship(replica, methodKey, args, self);
        }
        return runPlain(self, methodKey, args);
    }

    @Override
    public Object restartAsWrite(Object self, String methodKey, Object[] args, RestartAsWrite signal) throws Throwable {
        // the restarting read left the count before it called here, so 0 means no outer read
        if (inWriteContext() || (CloudHooks.openReads() > 0 && enclosingRootRead(1))) {
            throw signal; // an outer read restarts, not this one
        }
        CloudRuntime.Replica replica = replicas.get(self);
        if (replica != null) {
            replica.runtime().recordRestart(replica);
            return replica.runtime().ship(replica, methodKey, args, self);
        }
        return runPlain(self, methodKey, args);
    }

    @Override
    public void await(Object monitor, long millis, int nanos) throws InterruptedException {
        DeliveryScheduler scheduler = CloudRuntime.currentScheduler();
        if (scheduler != null) {
            scheduler.await(monitor); // a timed wait would differ between replicas: it waits for a notify
        } else {
            monitor.wait(millis, nanos);
        }
    }

    @Override
    public void notify(Object monitor, boolean all) {
        DeliveryScheduler scheduler = CloudRuntime.currentScheduler();
        if (scheduler != null) {
            scheduler.notify(monitor, all);
        } else if (all) {
            monitor.notifyAll();
        } else {
            monitor.notify();
        }
    }

    /** Runs a write on an object that is not replicated, as plain Java (nested writes run directly). */
    private Object runPlain(Object self, String methodKey, Object[] args) throws Throwable {
        Method m = Methods.find(self.getClass(), methodKey);
        plainWrite.set(Boolean.TRUE);
        try {
            return m.invoke(self, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        } finally {
            plainWrite.remove();
        }
    }

    /**
     * True when, past the first {@code skipCloudFrames} frames of cloud classes (the method that called the hook),
     * the stack holds a woven read method of a cloud root.
     */
    private static boolean enclosingRootRead(int skipCloudFrames) {
        if (!enclosingRootFrame(skipCloudFrames)) {
            return false; // the usual case: no method of a cloud root above the write at all
        }
        return WALKER.walk(frames -> {
            int[] skipped = {0};
            Optional<StackWalker.StackFrame> found = frames
                .filter(f -> isCloudClass(f.getDeclaringClass()))
                .filter(f -> skipped[0]++ >= skipCloudFrames)
                .filter(ReplicaDispatcher::isWovenRootMethod)
                .findFirst();
            return found.isPresent();
        });
    }

    /** True when, past the first {@code skipCloudFrames} frames of cloud classes, a frame of a cloud root is on the stack. */
    private static boolean enclosingRootFrame(int skipCloudFrames) {
        return CLASS_WALKER.walk(frames -> {
            int skipped = 0;
            var it = frames.iterator();
            while (it.hasNext()) {
                Class<?> c = it.next().getDeclaringClass();
                if (isCloudClass(c) && skipped++ >= skipCloudFrames && Cloud.Root.class.isAssignableFrom(c)) {
                    return true;
                }
            }
            return false;
        });
    }

    private static boolean isCloudClass(Class<?> c) {
        return Cloud.Root.class.isAssignableFrom(c) || Cloud.Node.class.isAssignableFrom(c);
    }

    private static boolean isWovenRootMethod(StackWalker.StackFrame f) {
        if (!Cloud.Root.class.isAssignableFrom(f.getDeclaringClass())) {
            return false;
        }
        String name = f.getMethodName();
        if (name.equals("<init>") || name.equals("<clinit>") || name.startsWith("lambda$")) {
            return false;
        }
        Method m = Methods.findDeclared(f.getDeclaringClass(), name, f.getDescriptor());
        return m != null && !Modifier.isPrivate(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())
            && !m.isBridge() && !m.isSynthetic();
    }
}
