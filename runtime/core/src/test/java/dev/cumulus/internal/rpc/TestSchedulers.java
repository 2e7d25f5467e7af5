package dev.cumulus.internal.rpc;

import dev.cumulus.internal.sched.Scheduler;

import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/** Schedulers for RPC engines wired to each other directly, without a node. */
final class TestSchedulers {
    /** Runs every incoming call at once, on the thread that delivers it; callers do not poll. */
    static final Scheduler RUN_NOW = new Scheduler() {
        @Override
        public boolean runAfterPoll(Runnable task, Executor otherwise, Work work) {
            task.run();
            return true;
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

    /** What a polling caller does instead of polling a node. */
    @FunctionalInterface
    interface Poll {
        void poll(BooleanSupplier done, Scheduler.Awaited awaited, Runnable late);
    }

    /** Callers that promise to poll for {@code budgetNs} and, where they would poll, do {@code poll}. */
    static Scheduler polling(long budgetNs, Poll poll) {
        return new Scheduler() {
            @Override
            public boolean runAfterPoll(Runnable task, Executor otherwise, Work work) {
                return false;
            }

            @Override
            public long pollBudgetNs() {
                return budgetNs;
            }

            @Override
            public boolean pollUntil(BooleanSupplier done, long untilNs, Awaited awaited, Runnable late) {
                poll.poll(done, awaited, late);
                return true;
            }
        };
    }

    private TestSchedulers() {
    }
}
