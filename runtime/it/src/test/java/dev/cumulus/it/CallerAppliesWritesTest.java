package dev.cumulus.it;

import dev.cumulus.Cluster;
import dev.cumulus.LocalCluster;
import dev.cumulus.internal.cloud.CloudRuntime;
import dev.cumulus.internal.cluster.NodeCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user's thread waiting for a remote call's reply applies the replicated writes its own poll delivered (Manta's
 * Table 1 set-up: the call's handler writes, and the caller's replica gets the write before the reply) — for clouds
 * whose class the agent found wait-free only: not for one with a wait() call, nor for one that reaches another cloud
 * class (which might wait, and might load only in the middle of a write).
 */
@Timeout(60)
class CallerAppliesWritesTest {
    /** Runs one write on node 1's replica of the cloud (node 1's handler calls it). */
    public interface Writer {
        void write(int i);
    }

    /** A cloud to create on every node, and the write node 1's handler invokes on it. */
    interface Case<T> {
        T create(Cluster cluster);

        void write(T cloud, int i);
    }

    /**
     * Node 0 calls node 1's writer {@code calls} times, whose handler invokes the case's write; returns how many of
     * those writes node 0's calling thread applied.
     */
    private static <T> int writesAppliedByTheCaller(int calls, Case<T> c) {
        return writesAppliedByTheCaller(calls, 0, c);
    }

    /**
     * As {@link #writesAppliedByTheCaller(int, Case)}, and node 0 goes on calling (at most {@code moreCalls} more
     * times) until its calling thread applied a write.
     */
    private static <T> int writesAppliedByTheCaller(int calls, int moreCalls, Case<T> c) {
        AtomicInteger onCaller = new AtomicInteger();
        AtomicInteger applied = new AtomicInteger();
        LocalCluster.run(2, cluster -> {
            T cloud = c.create(cluster);
            CloudRuntime clouds = ((NodeCluster) cluster).capability(CloudRuntime.class);
            Thread caller = Thread.currentThread();
            if (cluster.nodeId() == 1) {
                cluster.export((Writer) i -> c.write(cloud, i), Writer.class, "writer");
            } else {
                clouds.afterEveryWrite(() -> {
                    applied.incrementAndGet();
                    if (Thread.currentThread() == caller) {
                        onCaller.incrementAndGet();
                    }
                });
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Writer w = cluster.lookup("writer", Writer.class);
                for (int i = 0; i < calls || i < calls + moreCalls && onCaller.get() == 0; i++) {
                    w.write(i);
                }
            }
            cluster.barrier();
            clouds.afterEveryWrite(null);
        });
        assertTrue(applied.get() >= calls, "node 0 applied every write (" + applied.get() + ")");
        return onCaller.get();
    }

    @Test
    void aCallerWaitingForItsReplyAppliesTheWritesItsPollDelivered() {
        int calls = 300;
        int moreCalls = 200_000;
        int onCaller = writesAppliedByTheCaller(calls, moreCalls, new Case<Minimum>() {
            public Minimum create(Cluster cluster) {
                return cluster.replicated("min", Minimum::new);
            }

            public void write(Minimum min, int i) {
                min.set(1_000_000 - i);
            }
        });
        // the caller polls for its reply and finds the write first; the node's main thread may win a poll now and then
        // (on a loaded box most of them, so the caller goes on until one write ran on it): that some writes ran on the
        // caller is the behaviour, not how many
        assertTrue(onCaller > 0, "none of " + (calls + moreCalls) + " writes ran on the calling thread");
    }

    @Test
    void notTheWritesOfACloudClassThatCallsWait() {
        int onCaller = writesAppliedByTheCaller(100, new Case<Turnstile>() {
            public Turnstile create(Cluster cluster) {
                return cluster.replicated("gate", Turnstile::new); // its pass() calls wait()
            }

            public void write(Turnstile gate, int i) {
                gate.open(); // synchronized, and does not wait itself
            }
        });
        assertEquals(0, onCaller, "a caller applied writes of a cloud class that calls wait()");
    }

    @Test
    void notTheWritesOfACloudThatReachesAnotherCloudClass() {
        int onCaller = writesAppliedByTheCaller(100, new Case<Journal>() {
            public Journal create(Cluster cluster) {
                return cluster.replicated("journal", Journal::new); // its append creates Journal.Entry node objects
            }

            public void write(Journal journal, int i) {
                journal.append(1, "e" + i);
            }
        });
        assertEquals(0, onCaller, "a caller applied writes of a cloud that reaches another cloud class");
    }
}
