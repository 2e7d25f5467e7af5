package dev.cumulus.cli.launch.mains;

import java.util.concurrent.CountDownLatch;

/** Prints "ready pid=PID" then blocks until killed. */
public final class BlockMain {
    private BlockMain() {
    }

    public static void main(String[] args) throws InterruptedException {
        System.out.println("ready pid=" + ProcessHandle.current().pid());
        new CountDownLatch(1).await();
    }
}
