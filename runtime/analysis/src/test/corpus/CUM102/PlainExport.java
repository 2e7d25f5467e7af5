package corpus.cum102;

import dev.cumulus.Cluster;

/** Conforming: plain (non-cloud) objects may be exported and created remotely. */
public class PlainExport {
    interface CounterApi {
        void hit();
    }

    static final class Counter implements CounterApi {
        private int hits;

        @Override
        public void hit() {
            hits++;
        }
    }

    static void publish(Cluster cluster) {
        cluster.export(new Counter(), CounterApi.class, "counter");
        cluster.remoteNew(Counter.class, CounterApi.class, "counter-2");
    }
}
