package dev.cumulus.cli.standing.mains;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/** The test's {@link Valve}. */
public final class ValveImpl implements Valve {
    private final CountDownLatch open = new CountDownLatch(1);
    private final AtomicInteger waiting = new AtomicInteger();

    @Override
    public void waitOpen() throws InterruptedException {
        waiting.incrementAndGet();
        try {
            open.await();
        } finally {
            waiting.decrementAndGet();
        }
    }

    @Override
    public void open() {
        open.countDown();
    }

    @Override
    public int waiting() {
        return waiting.get();
    }
}
