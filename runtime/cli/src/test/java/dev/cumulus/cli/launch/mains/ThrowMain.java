package dev.cumulus.cli.launch.mains;

import dev.cumulus.internal.launch.LaunchConfig;

import java.util.concurrent.CountDownLatch;

/** Node 0 throws from main (exit code 1, stack trace on stderr); the others block until killed. */
public final class ThrowMain {
    private ThrowMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (LaunchConfig.fromProperties(System.getProperties()).nodeId() == 0) {
            throw new IllegalStateException("boom from node 0");
        }
        new CountDownLatch(1).await();
    }
}
