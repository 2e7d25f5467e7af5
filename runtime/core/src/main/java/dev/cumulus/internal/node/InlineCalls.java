package dev.cumulus.internal.node;

import dev.cumulus.internal.sched.TimedCall;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * What the main thread runs after its polls, as the standby sees it ({@link Standby}). Calls are numbered as they
 * start; the standby compares numbers at looks {@link DutyCycle#WATCH_NS} apart instead of reading a start time, so a
 * call reads no clock. Written by the main thread (and the standby's slow marks), read by the standby.
 */
final class InlineCalls {
    private static final VarHandle BUSY_CALL;
    private static final VarHandle CALLS;
    private static final VarHandle RUNNING_CALL;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            BUSY_CALL = lookup.findVarHandle(InlineCalls.class, "busyCall", long.class);
            CALLS = lookup.findVarHandle(InlineCalls.class, "calls", long.class);
            RUNNING_CALL = lookup.findVarHandle(InlineCalls.class, "runningCall", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * The call the main thread runs now, or the first call of the batch it belongs to; 0 while it runs none. The
     * standby takes over when it stays the same for {@link DutyCycle#TAKEOVER_NS}.
     */
    volatile long busyCall;
    /** The call the main thread runs now, 0 when none (nor while it polls inside one): each call's own run. */
    volatile long runningCall;
    /** Calls started so far: the standby sees calls coming in even when each is over before it looks. */
    volatile long calls;
    /** The call the standby saw running for {@link DutyCycle#TAKEOVER_NS} or longer, and since when. */
    volatile long slowCall;
    volatile long slowSinceNs;
    /** True while the standby is parked without a timeout: the next call unparks it. */
    volatile boolean standbyAsleep;
    /**
     * Run by the standby before each look: a test holds the looks with it while a call is outside the part it checks.
     * Set before the cycle starts; a no-op otherwise.
     */
    Runnable beforeLook = () -> { };

    /** The main thread starts a call ({@code batchCall}: the first of its batch, or 0); returns the call's number. */
    long started(long batchCall, Thread standby) {
        long number = calls + 1;
        // only the main thread writes these; a release store is a plain store on x86, a volatile one adds a fence
        CALLS.setRelease(this, number);
        RUNNING_CALL.setRelease(this, number);
        busyCall = batchCall != 0 ? batchCall : number; // volatile: before the look at standbyAsleep
        wakeStandby(standby);
        return number;
    }

    /** The main thread ended its call: a standby that still sees it only takes over for one look. */
    void ended() {
        RUNNING_CALL.setRelease(this, 0L);
        BUSY_CALL.setRelease(this, 0L);
    }

    /** The call whose own run the standby watches (0 while the main thread polls inside a call). */
    void running(long call) {
        RUNNING_CALL.setRelease(this, call);
    }

    /** Unparks a standby parked without a timeout. */
    void wakeStandby(Thread standby) {
        if (standbyAsleep) {
            standbyAsleep = false;
            LockSupport.unpark(standby);
        }
    }

    /** Tells call {@code number} whether its run was slow (the standby marked it) or quick. */
    void tell(TimedCall call, long number) {
        if (slowCall == number) {
            long now = System.nanoTime();
            call.ranSlowly(now, now - slowSinceNs);
        } else {
            call.ranQuickly();
        }
    }
}
