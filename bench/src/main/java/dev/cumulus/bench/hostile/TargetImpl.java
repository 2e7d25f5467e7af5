package dev.cumulus.bench.hostile;

import dev.cumulus.internal.cluster.NodeCluster;
import dev.cumulus.internal.transport.DriverHost;
import dev.cumulus.internal.transport.NodeTransport;

import java.util.Collection;

/** Node 0's {@link Target}: counts what it is given; reads its own node's counters. */
final class TargetImpl implements Target {
    private final NodeTransport transport;

    TargetImpl(NodeCluster cluster) {
        this.transport = cluster.transport();
    }

    @Override
    public int count(Collection<Object> values) {
        return values.size();
    }

    @Override
    public int countColliders(Collection<Collider> values) {
        return values.size();
    }

    @Override
    public int take(Object value) {
        return value == null ? 0 : 1;
    }

    @Override
    public long echo(long value) {
        return value + 1;
    }

    @Override
    public long[] figures(boolean collect) {
        if (collect) {
            System.gc();
        }
        Runtime rt = Runtime.getRuntime();
        long[] f = new long[5];
        f[HEAP_USED] = rt.totalMemory() - rt.freeMemory();
        f[DROPPED_CHUNKED] = transport.droppedChunkedMessages();
        f[REJECTED_FRAMES] = transport.rejectedFrames();
        f[FAILED_FRAMES] = transport.failedFrames();
        f[DROPPED_SETUPS] = DriverHost.droppedSetupFrames();
        return f;
    }
}
