package dev.cumulus.bench.arrays;

import dev.cumulus.Cluster;
import dev.cumulus.bench.ChildIo;

import java.util.List;
import java.util.Locale;

/**
 * One node process of the arrays miss measurement ({@link MissWorkload}), started by {@link ArraysBench} with the
 * launch contract of {@code cumulus run}. Node 0 prints {@code RESULT <rpc|blockrpc|read|write> p50=.. p99=..} (µs) and
 * {@code DONE}. Argument: {@code quick} for a short run.
 */
public final class MissNode {
    private MissNode() {
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        boolean quick = args.length > 0 && args[0].equals("quick");
        try (Cluster cluster = Cluster.join()) {
            MissWorkload.Samples s = MissWorkload.run(cluster, quick);
            if (cluster.nodeId() == 0) {
                print("rpc", s.rpc());
                print("blockrpc", s.blockRpc());
                print("read", s.reads());
                print("write", s.writes());
            }
            cluster.barrier();
        }
        ChildIo.line("DONE");
    }

    private static void print(String name, List<Double> samples) {
        ArraysBench.Stats st = ArraysBench.Stats.of(samples);
        ChildIo.line(String.format(Locale.ROOT, "RESULT %s p50=%.4f p99=%.4f", name, st.p50(), st.p99()));
    }
}
