package dev.cumulus.internal.singlevm;

import dev.cumulus.CumulusException;
import org.agrona.UnsafeApi;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Class initialisation on a node other than node 0 meeting write-backs. A class's initializer runs on node 0
 * ({@link ObjectSpace#initialiseAtHome}), which releases what it wrote before it answers, so the write-back that
 * carries the initializer's writes to this node may carry the first objects of the class too, and its reply is what
 * node 0's answer waits for. Two things follow, both kept here:
 * <ul>
 * <li>A thread of this node that waits for node 0 to initialise a class holds the class's initialisation lock here
 *     meanwhile, so no other thread can make an object of the class: a write-back that needs one is stored by the
 *     waiting thread itself (the JVM lets the initialising thread make objects of its class), and answered then. The
 *     same holds for every class whose initialisation the waiting thread is inside: one whose initializer runs
 *     further down its stack (an enum's or an interface's, which run on every node, using the class waited for), and
 *     a subclass, or an implementation of an interface with default methods, of one of those, whose initialisation
 *     started theirs (JLS 12.4.2: a class's initialisation first initialises its superclass and those
 *     interfaces).</li>
 * <li>A write-back that needs a class not initialised here while no thread waits for it (the initialisation was
 *     another node's) is stored inside the class's initialisation on this node, on a thread of its own, so a thread
 *     here that uses the class finds the initializer's writes stored, as the end of an initialisation happens before
 *     any use of the class (JLS 12.4.2); the polling thread never waits for a class's initialisation lock.</li>
 * </ul>
 * A write-back needing two classes that two threads here are initialising at once, each for node 0, may wait for both
 * and is a limit (SINGLEVM.md).
 */
final class Initialisers {
    private static final Runnable ANSWERED = () -> { };
    /** The class whose initialisation on the current thread is to run a store ({@link #insideInitialisation}). */
    private static final ThreadLocal<Around> AROUND = new ThreadLocal<>();

    private final ObjectSpace space;
    /** The threads waiting for node 0 to initialise a class, by class name. */
    private final ConcurrentHashMap<String, Waiting> waiting = new ConcurrentHashMap<>();
    /** The stores not done yet that need a class not initialised here, by that class. */
    private final ConcurrentHashMap<Class<?>, Queue<Store>> pending = new ConcurrentHashMap<>();
    /** Program classes seen initialised here (no longer asked about). */
    private final Set<String> ready = ConcurrentHashMap.newKeySet();

    Initialisers(ObjectSpace space) {
        this.space = space;
    }

    /** A write-back's store and reply, run once by whichever thread gets to it first. */
    private static final class Store {
        private final Runnable work;
        private final AtomicBoolean taken = new AtomicBoolean();

        Store(Runnable work) {
            this.work = work;
        }

        void runOnce() {
            if (taken.compareAndSet(false, true)) {
                work.run();
            }
        }
    }

    /** A thread waiting for node 0's answer about one class, and the stores handed to it meanwhile. */
    private static final class Waiting {
        private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

        private final LinkedBlockingQueue<Runnable> work = new LinkedBlockingQueue<>();
        /** The classes whose initializers run on the waiting thread's stack, the class waited for among them. */
        private final List<Class<?>> inside;
        private boolean closed;

        /** For the current thread, from the initializer of the class it waits for. */
        Waiting() {
            inside = WALKER.walk(frames -> frames.filter(f -> f.getMethodName().equals("<clinit>"))
                .<Class<?>>map(StackWalker.StackFrame::getDeclaringClass).distinct().toList());
        }

        /**
         * Whether the waiting thread is inside the initialisation of {@code type}: one of the classes whose initializer
         * it runs, or a class whose initialisation started one of theirs (a subclass; a class implementing one that is
         * an interface with a default method). No other thread can be inside such a class's initialisation and waiting
         * for node 0 meanwhile: it would wait for this thread's first.
         */
        boolean inside(Class<?> type) {
            for (Class<?> c : inside) {
                if (c == type || (c.isInterface() ? hasDefault(c) && c.isAssignableFrom(type) && !type.isInterface()
                    : c.isAssignableFrom(type))) {
                    return true;
                }
            }
            return false;
        }

        private static boolean hasDefault(Class<?> i) {
            for (Method m : i.getDeclaredMethods()) {
                if (!Modifier.isAbstract(m.getModifiers()) && !Modifier.isStatic(m.getModifiers())) {
                    return true;
                }
            }
            return false;
        }

        /** Hands {@code store} to the waiting thread; false once it stopped waiting. */
        synchronized boolean handOver(Store store) {
            if (closed) {
                return false;
            }
            work.add(store::runOnce);
            return true;
        }

        synchronized void close() {
            closed = true;
        }
    }

    /** The store to run inside the initialisation of {@code type} on this thread, then the rest of the chain. */
    private record Around(Class<?> type, Runnable next) {
    }

    /**
     * Waits for {@code answer}, node 0's answer about class {@code type} (asked without waiting), running meanwhile the
     * stores that need {@code type}; an interrupt does not end the wait (it stays pending), as for every call of the
     * heap ({@link Peers}). Returns the answer, or throws what the call threw.
     */
    ObjectImage await(Class<?> type, CompletableFuture<Object> answer) {
        Waiting me = new Waiting();
        waiting.put(type.getName(), me);
        pending.forEach((needed, stores) -> {
            if (me.inside(needed)) {
                stores.forEach(me::handOver); // registered before this thread was: nobody handed it over
            }
        });
        answer.whenComplete((value, failure) -> me.work.add(ANSWERED));
        boolean interrupted = false;
        try {
            while (!answer.isDone()) {
                try {
                    me.work.take().run();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            waiting.remove(type.getName(), me);
            me.close();
            for (Runnable r; (r = me.work.poll()) != null; ) {
                r.run(); // handed over before the close
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            return (ObjectImage) answer.get();
        } catch (InterruptedException e) {
            throw new IllegalStateException("the answer is in: get() does not wait", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new CumulusException("single VM: initialising " + type.getName() + " on node 0 failed: "
                + e.getCause(), e.getCause());
        }
    }

    /**
     * The program classes not initialised here that storing the write-back {@code offsets, images} would make an
     * object of (a class an image publishes whole, the class of an object referred to, an enum's); empty mostly.
     */
    List<Class<?>> uninitialisedFor(int[] offsets, ObjectImage[] images) {
        List<Class<?>> found = new ArrayList<>(0);
        for (int k = 0; k < images.length; k++) {
            if (offsets[k] == Publication.WHOLE) {
                consider(images[k].className(), found);
            }
            byte[] kinds = images[k].kinds();
            String[] texts = images[k].texts();
            for (int i = 0; i < kinds.length; i++) {
                if (kinds[i] == ImageCodec.REF) {
                    consider(texts[i], found);
                } else if (kinds[i] == ImageCodec.ENUM) {
                    consider(texts[i].substring(0, Math.max(0, texts[i].indexOf('#'))), found);
                }
            }
        }
        return found;
    }

    private void consider(String className, List<Class<?>> found) {
        if (className.startsWith("[") || ready.contains(className)) {
            return; // an array's class needs no initialisation of its element class
        }
        Class<?> type = space.loadClass(className);
        if (!UnsafeApi.shouldBeInitialized(type)) {
            ready.add(className);
        } else if (!found.contains(type)) {
            found.add(type);
        }
    }

    /**
     * Runs {@code work}, a write-back's store and reply, which needs the uninitialised {@code classes}: on the thread
     * waiting for node 0 to initialise one of them, if there is one, else on a new thread inside their initialisation
     * here. Returns at once.
     */
    void storeInitialising(List<Class<?>> classes, Runnable work) {
        Store store = new Store(work);
        for (Class<?> type : classes) {
            pending.computeIfAbsent(type, n -> new ConcurrentLinkedQueue<>()).add(store);
        }
        for (Class<?> type : classes) {
            for (Waiting w : waiting.values()) { // the class a thread waits for is among those it is inside
                if (w.inside(type) && w.handOver(store)) {
                    forget(classes, store);
                    return;
                }
            }
        }
        Thread.ofPlatform().daemon().name("cumulus-store-initialising").start(() -> {
            try {
                space.serving(() -> {
                    try {
                        around(classes, 0, store);
                    } catch (LinkageError cannotInitialise) {
                        // a class that failed to initialise here: the store meets the same error and answers with it
                    }
                    store.runOnce(); // unless an initialisation ran it
                    return null;
                });
            } finally {
                forget(classes, store);
            }
        });
    }

    private void forget(List<Class<?>> classes, Store store) {
        for (Class<?> type : classes) {
            Queue<Store> q = pending.get(type);
            if (q != null) {
                q.remove(store);
            }
        }
    }

    /** Initialises {@code classes} from {@code i} on, one inside the other, and runs {@code store} inside the last. */
    private static void around(List<Class<?>> classes, int i, Store store) {
        if (i == classes.size()) {
            store.runOnce();
            return;
        }
        Around outer = AROUND.get();
        AROUND.set(new Around(classes.get(i), () -> around(classes, i + 1, store)));
        try {
            UnsafeApi.ensureClassInitialized(classes.get(i));
        } finally {
            AROUND.set(outer);
        }
        around(classes, i + 1, store); // does nothing more if the initialisation ran the chain
    }

    /**
     * From the initialisation of {@code type} on this node by a serving thread: runs the store this thread
     * initialises the class for, if any, while it holds the class's initialisation lock.
     */
    static void insideInitialisation(Class<?> type) {
        Around a = AROUND.get();
        if (a != null && a.type() == type) {
            AROUND.set(null);
            a.next().run();
        }
    }
}
