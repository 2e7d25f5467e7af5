package dev.cumulus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.ref.WeakReference;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A forwarding address is a node number, not the object: once an object moved away, its former node must not keep
 * the old copy (and its state) alive. Found by {@code cumulus bench migration}: a 64 MiB object moved from node 1 to
 * node 2 and back leaves its 64 MiB on node 2, held by the forwarding entry in {@code ExportTable}
 * ({@code Exported.target} stays set after {@code ObjectGate.forward}).
 */
@Timeout(60)
class MigrationRetentionTest {
    public interface Blob {
        int length();
    }

    public static class BlobImpl implements Blob {
        private final byte[] state = new byte[1 << 20];

        @Override
        public int length() {
            return state.length;
        }
    }

    @Test
    void theFormerNodeLetsTheOldCopyGo() {
        Map<String, Boolean> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                BlobImpl impl = new BlobImpl();
                WeakReference<BlobImpl> old = new WeakReference<>(impl);
                Blob blob = cluster.export(impl, Blob.class, "retained");
                impl = null;
                Remote.migrate(blob, 1, Migration.IDLE);
                assertEquals(1 << 20, blob.length());
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (old.get() != null && System.nanoTime() - deadline < 0) {
                    System.gc();
                    Thread.onSpinWait();
                }
                seen.put("released", old.get() == null);
            }
            cluster.barrier();
        });
        assertTrue(seen.get("released"), "node 0 still holds the object that moved to node 1");
    }
}
