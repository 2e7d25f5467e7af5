package dev.cumulus.cli.launch.mains;

import dev.cumulus.internal.launch.LaunchConfig;

import java.util.concurrent.CountDownLatch;

/** Node 2 prints 25 numbered lines and exits with code 3; every other node prints "ready" and blocks until killed. */
public final class ExitOnNode2Main {
    private ExitOnNode2Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (LaunchConfig.fromProperties(System.getProperties()).nodeId() == 2) {
            for (int i = 0; i < 25; i++) {
                System.out.println("node 2 line " + i);
            }
            System.exit(3);
        }
        System.out.println("ready");
        new CountDownLatch(1).await();
    }
}
