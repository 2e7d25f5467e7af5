package dev.cumulus.it;

import dev.cumulus.AsyncTicket;
import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A remote call that invokes a replicated write, run inline on the node's main thread: when the write waits (a full
 * {@link Bin}), the node keeps serving — its standby polls while the main thread waits — so the write that releases
 * it still arrives and is applied.
 */
@Timeout(60)
class WriteInACallTest {
    public interface Reporter {
        /** Invokes {@code Minimum.set(m)} (a synchronized write). */
        void report(int m);

        /** Invokes {@code Bin.put(v)}, which waits while the bin is full. */
        void put(int v) throws InterruptedException;
    }

    static final class ReporterImpl implements Reporter {
        private final Minimum min;
        private final Bin bin;

        ReporterImpl(Minimum min, Bin bin) {
            this.min = min;
            this.bin = bin;
        }

        @Override
        public void report(int m) {
            min.set(m);
        }

        @Override
        public void put(int v) throws InterruptedException {
            bin.put(v);
        }
    }

    @Test
    void aWriteThatWaitsInsideACallOnTheMainThreadDoesNotStopTheNode() {
        List<Integer> got = new CopyOnWriteArrayList<>();
        LocalCluster.run(2, cluster -> {
            Minimum min = cluster.replicated("min", Minimum::new);
            Bin bin = cluster.replicated("bin", Bin::new);
            if (cluster.nodeId() == 1) {
                cluster.export(new ReporterImpl(min, bin), Reporter.class, "reporter");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Reporter r = cluster.lookup("reporter", Reporter.class);
                for (int i = 0; i < 50; i++) { // the method runs inline on node 1's main thread by now
                    r.report(100 - i);
                }
                bin.put(1);
                Reporter ticket = AsyncTicket.newTicket(r);
                ticket.put(2); // on node 1's main thread: the bin is full, so its put waits there
                got.add(bin.get()); // node 1 must still poll for this write to arrive, or the put never resumes
                AsyncTicket.getResult(ticket);
                got.add(bin.get());
            }
            cluster.barrier();
        });
        assertEquals(List.of(1, 2), got);
    }
}
