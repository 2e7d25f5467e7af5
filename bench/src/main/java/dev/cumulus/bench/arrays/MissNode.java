package dev.cumulus.bench.arrays;

import dev.cumulus.Cluster;
import dev.cumulus.bench.ChildIo;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One node process of the arrays miss measurement ({@link MissWorkload}), started by {@link ArraysBench} with the
 * launch contract of {@code cumulus run}. Node 0 prints {@code RESULT rpc p50=.. p99=..} and, per partition size B,
 * {@code RESULT <blockrpc|read|write>-B p50=.. p99=..} (µs), then {@code DONE}. Arguments: the partition sizes
 * (default {@link MissWorkload#FIGURE_9_BLOCKS}), {@code quick} for a short run, {@code long} for 5 times the
 * measured samples.
 */
public final class MissNode {
    private MissNode() {
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        boolean quick = Arrays.asList(args).contains("quick");
        int measure = Arrays.asList(args).contains("long") ? 5 : 1;
        int[] blocks = Arrays.stream(args).filter(a -> a.matches("\\d+")).mapToInt(Integer::parseInt).toArray();
        try (Cluster cluster = Cluster.join()) {
            MissWorkload.Samples s = MissWorkload.run(cluster, quick, measure,
                blocks.length > 0 ? blocks : MissWorkload.FIGURE_9_BLOCKS);
            if (cluster.nodeId() == 0) {
                print("rpc", s.rpc());
                for (Map.Entry<Integer, MissWorkload.BlockSamples> e : s.blocks().entrySet()) {
                    print("blockrpc-" + e.getKey(), e.getValue().blockRpc());
                    print("read-" + e.getKey(), e.getValue().reads());
                    print("write-" + e.getKey(), e.getValue().writes());
                }
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
