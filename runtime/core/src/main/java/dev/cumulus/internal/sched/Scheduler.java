package dev.cumulus.internal.sched;

import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * How work meets threads on a node. One thread at a time runs the node's duty cycle (it polls the transport, runs the
 * timers and the protocols); work a poll brings that may take longer than a poll runs right after it, on the thread
 * that polled, or goes to a thread of its own. A thread about to block for something a poll brings — a reply, a
 * delivered write, a shared-array grant — first polls for it itself for a short while, so what it waits for needs no
 * wake-up. Where each kind of work runs is decided here, in one place ({@code docs/design/THREADING.md}).
 */
public interface Scheduler {
    /** What a poll hands over. */
    enum Work {
        /** An incoming call to an object of the program: the node's main thread runs it after its poll. */
        CALL,
        /** A call to a system method that never blocks ({@code @Brief}): any polling thread runs it after its poll. */
        BRIEF_CALL,
        /** Delivered replicated writes: the main thread applies them after its poll, as it runs a call. */
        DELIVERED_WRITES,
        /** Delivered replicated writes a thread waiting for a remote call's reply may apply itself after its poll. */
        WRITES_FOR_WAITING_CALLER,
        /**
         * An asynchronous call's answer whose future nobody has attached a callback to: completing it runs no program
         * code, so any thread that polled it completes it right after its poll (no thread is woken for it).
         */
        ASYNC_ANSWER
    }

    /** What a polling waiter waits for. */
    enum Awaited {
        /**
         * A remote call's reply: the waiter polls hot at first (the reply usually comes within a µs), then runs its
         * {@code late} task, and it may apply the replicated writes its polls deliver.
         */
        REPLY,
        /**
         * An asynchronous call's answer ({@code AsyncTicket.getResult}, a wait on {@code Remote.async}'s future): as
         * {@link #REPLY}, but its answers ring this node's doorbell (an asynchronous call makes no promise to poll),
         * so the waiter takes the bell over at once; it completes every answer without callbacks its polls bring.
         */
        ASYNC_REPLY,
        /**
         * As {@link #ASYNC_REPLY}, by a thread that has started later asynchronous calls (it will poll for their answers
         * soon): as it stops, its answer in, it keeps the bell of its napping main thread, so the answers that come
         * before its next poll ring nobody (the main thread's nap bounds how long a message waits meanwhile).
         */
        ASYNC_REPLY_MORE_DUE,
        /** Replicated writes a reply depends on: the waiter may apply the writes its polls deliver. */
        APPLIED_WRITES,
        /** Anything else (its own write's delivery, a grant): the waiter runs brief calls only. */
        OTHER
    }

    /** The scheduler of a component with no node: nothing runs after a poll and nobody polls while it waits. */
    Scheduler NONE = new Scheduler() {
        @Override
        public boolean runAfterPoll(Runnable task, Executor otherwise, Work work) {
            return false;
        }

        @Override
        public long pollBudgetNs() {
            return 0;
        }

        @Override
        public boolean pollUntil(BooleanSupplier done, long untilNs, Awaited awaited, Runnable late) {
            return false;
        }
    };

    /**
     * Called during a poll with {@code task}: true when the polling thread takes it and runs it right after its poll
     * (or hands it to {@code otherwise} later, when it cannot run it in time); false when the caller must see to it
     * now (usually: {@code otherwise.execute(task)}).
     */
    boolean runAfterPoll(Runnable task, Executor otherwise, Work work);

    /**
     * How long the current thread would poll in {@link #pollUntil} before it blocks: the node's poll budget, or 0
     * where it does not poll (the node's standby, a node that parks its callers at once).
     */
    long pollBudgetNs();

    /**
     * Before the current thread blocks until {@code done}: it polls for it itself until {@code done} or the clock
     * passes {@code untilNs} ({@code nanoTime}), then looks once more. {@code late} (or null) runs once when
     * {@code done} has not come after the first few looks (a µs or so). Returns false at once, running nothing, where
     * the thread does not poll ({@link #pollBudgetNs} is 0), else true.
     */
    boolean pollUntil(BooleanSupplier done, long untilNs, Awaited awaited, Runnable late);

    /**
     * The current thread may block next until something a poll brings (its own replicated write, after polling for
     * it): on the node's main thread inside a call, the node's standby polls in its place meanwhile, and the wait does
     * not count as the call running slowly (it waits for a peer, not for the method's own work). Run what this returns
     * once the wait is over; elsewhere it does nothing.
     */
    default Runnable mayBlock() {
        return NOTHING;
    }

    /** What {@link #mayBlock} returns where a wait changes nothing. */
    Runnable NOTHING = () -> { };

    /** {@link #pollUntil} for the node's poll budget from now; returns at once where the thread does not poll. */
    default void pollBriefly(BooleanSupplier done, Awaited awaited) {
        long budgetNs = pollBudgetNs();
        if (budgetNs > 0) {
            pollUntil(done, System.nanoTime() + budgetNs, awaited, null);
        }
    }
}
