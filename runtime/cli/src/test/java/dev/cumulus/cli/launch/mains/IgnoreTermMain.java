package dev.cumulus.cli.launch.mains;

import java.util.concurrent.CountDownLatch;

/** Prints "ready" then blocks; a shutdown hook that never returns keeps SIGTERM from ending it (only SIGKILL does). */
public final class IgnoreTermMain {
    private IgnoreTermMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        CountDownLatch never = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            System.out.println("ignoring SIGTERM");
            try {
                never.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        System.out.println("ready");
        never.await();
    }
}
