package dev.cumulus.internal.cloud;

/** What {@link CloudHooks} delegate to: the cloud runtime's read/write dispatch and wait/notify scheduling. */
public interface CloudDispatcher {

    /** Returns {@link CloudHooks#PROCEED} to run the write body on this thread, or the result of the replicated call. */
    Object beforeWrite(Object self, String methodKey, Object[] args) throws Throwable;

    /** A read method reached a write: run the whole read again as a replicated write; returns its result. */
    Object restartAsWrite(Object self, String methodKey, Object[] args, RestartAsWrite signal) throws Throwable;

    /** {@code monitor.wait(millis, nanos)} inside a cloud class. */
    void await(Object monitor, long millis, int nanos) throws InterruptedException;

    /** {@code monitor.notify()} ({@code all == false}) or {@code notifyAll()} inside a cloud class. */
    void notify(Object monitor, boolean all);

    /** Runs everything as plain Java: what cloud classes do before the runtime is installed. */
    CloudDispatcher PASS_THROUGH = new CloudDispatcher() {
        @Override
        public Object beforeWrite(Object self, String methodKey, Object[] args) {
            return CloudHooks.PROCEED;
        }

        @Override
        public Object restartAsWrite(Object self, String methodKey, Object[] args, RestartAsWrite signal) {
            throw signal;
        }

        @Override
        @SuppressWarnings("java:S2274")
        public void await(Object monitor, long millis, int nanos) throws InterruptedException {
            monitor.wait(millis, nanos);
        }

        @Override
        public void notify(Object monitor, boolean all) {
            if (all) {
                monitor.notifyAll();
            } else {
                monitor.notify();
            }
        }
    };
}
