package dev.cumulus.internal.singlevm;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The monitors of objects that are not shared (the JDK's objects, e.g. a {@code List} the program synchronizes on)
 * as woven code uses them: node-local, reentrant, with wait/notify; an entry lives while a thread holds or waits for
 * it. The JDK's own code locking the same object uses the JVM's monitor, which is a different one (a documented limit).
 */
final class LocalMonitors {
    private static final ConcurrentHashMap<Key, Monitor> MONITORS = new ConcurrentHashMap<>();

    private record Key(Object target) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.target == target;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(target);
        }
    }

    private static final class Monitor {
        final ReentrantLock lock = new ReentrantLock();
        final Condition condition = lock.newCondition();
        int users;
    }

    private LocalMonitors() {
    }

    static void enter(Object o) {
        Monitor m = MONITORS.compute(new Key(o), (k, v) -> {
            Monitor r = v == null ? new Monitor() : v;
            r.users++;
            return r;
        });
        m.lock.lock();
    }

    static void exit(Object o) {
        Key key = new Key(o);
        Monitor m = MONITORS.get(key);
        if (m == null || !m.lock.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("the current thread does not hold the monitor of a "
                + o.getClass().getName());
        }
        m.lock.unlock();
        MONITORS.computeIfPresent(key, (k, v) -> --v.users == 0 ? null : v);
    }

    static void await(Object o, long timeoutMs) throws InterruptedException {
        Monitor m = held(o, "wait on");
        if (timeoutMs == 0) {
            m.condition.await();
        } else {
            m.condition.await(timeoutMs, TimeUnit.MILLISECONDS);
        }
    }

    static void notify(Object o, boolean all) {
        Monitor m = held(o, all ? "notifyAll on" : "notify on");
        if (all) {
            m.condition.signalAll();
        } else {
            m.condition.signal();
        }
    }

    /** Whether a thread holds, waits for or waits in the monitor of {@code o} now. */
    static boolean inUse(Object o) {
        return MONITORS.containsKey(new Key(o));
    }

    static boolean holds(Object o) {
        Monitor m = MONITORS.get(new Key(o));
        return m != null && m.lock.isHeldByCurrentThread();
    }

    private static Monitor held(Object o, String what) {
        Monitor m = MONITORS.get(new Key(o));
        if (m == null || !m.lock.isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("current thread cannot " + what + " a " + o.getClass().getName()
                + ": it does not hold its monitor");
        }
        return m;
    }
}
