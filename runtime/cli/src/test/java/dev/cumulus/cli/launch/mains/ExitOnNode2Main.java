package dev.cumulus.cli.launch.mains;

import java.util.concurrent.CountDownLatch;

/** Node 2 prints 25 numbered lines and exits with code 3; every other node prints "ready" and blocks until killed. */
public final class ExitOnNode2Main {
    private ExitOnNode2Main() {
    }

    public static void main(String[] args) throws InterruptedException {
        String id = System.getProperty("cumulus.node.id");
        if ("2".equals(id)) {
            for (int i = 0; i < 25; i++) {
                System.out.println("node 2 line " + i);
            }
            System.exit(3);
        }
        System.out.println("ready");
        new CountDownLatch(1).await();
    }
}
