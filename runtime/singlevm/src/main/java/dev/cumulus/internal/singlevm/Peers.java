package dev.cumulus.internal.singlevm;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.node.NodeServices;
import dev.cumulus.internal.rpc.RemoteInvocationHandler;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The other nodes' shared heaps, as this node calls them ({@link HeapService}). Every call waits for its reply with no
 * timeout (a monitor may be held as long as the program likes; a dead node fails the call) and uninterruptibly: a
 * Java thread cannot be interrupted out of a monitor entry or a field access, and a step left half done would leave
 * a monitor granted to nobody. An interrupt stays pending for the thread's next wait.
 */
final class Peers {
    private static final Method FETCH = method("fetch", long.class, int.class, int.class);
    private static final Method WRITE_BACK = method("writeBack", long[].class);
    private static final Method ENTER = method("monitorEnter", long.class, int.class, long.class);
    private static final Method EXIT = method("monitorExit", long.class, int.class, long.class);
    private static final Method WAIT = method("monitorWait", long.class, int.class, long.class);
    private static final Method CANCEL_WAIT = method("cancelWait", long.class, int.class, long.class);
    private static final Method NOTIFY = method("monitorNotify", long.class, int.class, long.class, boolean.class);
    private static final Method GRANTED = method("granted", long.class, long.class);
    private static final Method GET_VOLATILE = method("getVolatile", long.class, int.class);
    private static final Method PUT_VOLATILE = method("putVolatile", long.class, int.class, long.class);
    private static final Method STATICS = method("statics", String.class, int.class);
    private static final Method START_THREAD = method("startThread", long.class, String.class, String.class,
        int.class, long.class, boolean.class);
    private static final Method THREAD_ENDED = method("threadEnded", long.class);
    private static final Method THREAD_FAILED = method("threadFailed", long.class, String.class);
    private static final Method INTERRUPT_THREAD = method("interruptThread", long.class);
    private static final Method THREAD_STATE = method("threadState", long.class);
    private static final Method THREAD_DUMP = method("threadDump");
    private static final Method THREAD_STARTED = method("threadStarted", int.class);
    private static final Method FETCH_OBJECT = method("fetchObject", long.class);
    private static final Method FETCH_STATICS = method("fetchStatics", String.class);
    private static final Method INITIALISE_STATICS = method("initialiseStatics", String.class, String.class);
    private static final Method WRITE_OBJECTS = method("writeObjects", long[].class, int[].class,
        ObjectImage[].class);
    private static final Method PROGRAM_EXIT = method("programExit", int.class, int.class, boolean.class);
    private static final Method FETCH_ELEMENTS = method("fetchElements", long.class, int.class, int.class);

    private final NodeServices node;
    private final AtomicReferenceArray<RemoteInvocationHandler> handlers;

    Peers(NodeServices node) {
        this.node = node;
        this.handlers = new AtomicReferenceArray<>(node.size());
    }

    Block fetch(int to, long id, int block, int blockSlots) {
        return (Block) call(to, FETCH, id, block, blockSlots);
    }

    void writeBack(int to, long[] updates) {
        call(to, WRITE_BACK, (Object) updates);
    }

    boolean monitorEnter(int to, long id, int from, long thread) {
        return (Boolean) call(to, ENTER, id, from, thread);
    }

    void monitorExit(int to, long id, int from, long thread) {
        call(to, EXIT, id, from, thread);
    }

    void monitorWait(int to, long id, int from, long thread) {
        call(to, WAIT, id, from, thread);
    }

    boolean cancelWait(int to, long id, int from, long thread) {
        return (Boolean) call(to, CANCEL_WAIT, id, from, thread);
    }

    void monitorNotify(int to, long id, int from, long thread, boolean all) {
        call(to, NOTIFY, id, from, thread, all);
    }

    long getVolatile(int to, long id, int slot) {
        return (Long) call(to, GET_VOLATILE, id, slot);
    }

    void putVolatile(int to, long id, int slot, long value) {
        call(to, PUT_VOLATILE, id, slot, value);
    }

    long statics(int to, String className, int slots) {
        return (Long) call(to, STATICS, className, slots);
    }

    /**
     * Asks node {@code to} to run task {@code id} on a new thread; one-way to another node (a start needs no answer:
     * the thread's end comes back as {@code threadEnded}, a failure to start it too), a direct call on this node.
     */
    void startThread(int to, long id, String className, String name, int creator, long handle, boolean daemon) {
        if (to == node.nodeId()) {
            call(to, START_THREAD, id, className, name, creator, handle, daemon);
        } else {
            handler(to).sendOneWay(START_THREAD, new Object[] {id, className, name, creator, handle, daemon});
        }
    }

    void threadEnded(int to, long handle) {
        call(to, THREAD_ENDED, handle);
    }

    void threadFailed(int to, long handle, String failure) {
        call(to, THREAD_FAILED, handle, failure);
    }

    String threadDump(int to) {
        return (String) call(to, THREAD_DUMP);
    }

    void interruptThread(int to, long handle) {
        call(to, INTERRUPT_THREAD, handle);
    }

    String threadState(int to, long handle) {
        return (String) call(to, THREAD_STATE, handle);
    }

    int threadStarted(int to, int delta) {
        return (Integer) call(to, THREAD_STARTED, delta);
    }

    ObjectImage fetchObject(int to, long id) {
        return (ObjectImage) call(to, FETCH_OBJECT, id);
    }

    ObjectImage fetchStatics(int to, String className) {
        return (ObjectImage) call(to, FETCH_STATICS, className);
    }

    /**
     * Asks node {@code to} (0) to initialise program class {@code className} on a thread named {@code threadName}
     * without waiting for the answer (the caller serves write-backs meanwhile: {@link Initialisers}); no timeout, as
     * every call here.
     */
    CompletableFuture<Object> initialiseStatics(int to, String className, String threadName) {
        return handler(to).withTimeout(0).invokeAsync(INITIALISE_STATICS, new Object[] {className, threadName});
    }

    void writeObjects(int to, long[] ids, int[] offsets, ObjectImage[] images) {
        call(to, WRITE_OBJECTS, ids, offsets, images);
    }

    ObjectImage fetchElements(int to, long id, int from, int count) {
        return (ObjectImage) call(to, FETCH_ELEMENTS, id, from, count);
    }

    /** Tells node {@code to} that the program exits ({@link ProgramExit}); the future completes with its acknowledgement. */
    CompletableFuture<Object> programExit(int to, int origin, int status, boolean halt) {
        return handler(to).withTimeout(0).invokeAsync(PROGRAM_EXIT, new Object[] {origin, status, halt});
    }

    /** Tells node {@code to} that its thread {@code thread} holds the monitor of {@code id}; one-way. */
    void granted(int to, long id, long thread) {
        handler(to).sendOneWay(GRANTED, new Object[] {id, thread});
    }

    private Object call(int to, Method method, Object... args) {
        try {
            return handler(to).invokeUninterruptibly(method, args);
        } catch (RuntimeException | Error e) {
            ProgramExit.stopIfProgramThread(); // the node it called left because the program exits
            throw e;
        } catch (Throwable t) {
            ProgramExit.stopIfProgramThread();
            throw new CumulusException("single VM: " + method.getName() + " on node " + to + " failed: " + t, t);
        }
    }

    private RemoteInvocationHandler handler(int to) {
        RemoteInvocationHandler h = handlers.get(to);
        if (h == null) {
            HeapService proxy = node.systemProxy(to, NodeServices.SINGLE_VM_ID, HeapService.class);
            if (!(Proxy.getInvocationHandler(proxy) instanceof RemoteInvocationHandler r)) {
                throw new IllegalStateException("the system proxy to node " + to + " is no RemoteInvocationHandler");
            }
            handlers.compareAndSet(to, null, r);
            h = handlers.get(to);
        }
        return h;
    }

    private static Method method(String name, Class<?>... parameters) {
        try {
            return HeapService.class.getMethod(name, parameters);
        } catch (NoSuchMethodException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
