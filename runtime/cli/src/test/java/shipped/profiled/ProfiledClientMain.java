package shipped.profiled;

import dev.cumulus.Cluster;
import shipped.admin.Counter;
import shipped.admin.CounterImpl;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * A client that makes {@code TAG-0} on server 0 and {@code TAG-1} on server 1, calls them 50 and 30 times, says it is
 * ready (file {@code DIR/TAG.ready}), waits until the client {@code PEER} is ready too (both run at once, each with its
 * own objects on the same servers), calls {@code TAG-0} 20 times more and closes its cluster. Arguments:
 * {@code TAG DIR PEER}.
 */
public final class ProfiledClientMain {
    private ProfiledClientMain() {
    }

    public static void main(String[] args) throws Exception {
        String tag = args[0];
        Path dir = Path.of(args[1]);
        String peer = args[2];
        try (Cluster cluster = Cluster.join()) {
            Counter first = cluster.remoteNew(CounterImpl.class, Counter.class, tag + "-0", 0);
            Counter second = cluster.remoteNew(CounterImpl.class, Counter.class, tag + "-1", 1);
            for (int i = 0; i < 50; i++) {
                first.add(1);
            }
            for (int i = 0; i < 30; i++) {
                second.add(1);
            }
            Files.writeString(dir.resolve(tag + ".ready"), tag);
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (!Files.exists(dir.resolve(peer + ".ready"))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException(tag + ": client " + peer + " was not ready within 120 s");
                }
                LockSupport.parkNanos(1_000_000L); // the peer's JVM is starting: poll gently
            }
            for (int i = 0; i < 20; i++) {
                first.add(1);
            }
            System.out.println(tag + " done: " + first.add(0) + " " + second.add(0));
        }
    }
}
