package {{package}};

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Minimum} on a cluster of 3 nodes as threads of this JVM ({@code LocalCluster}): every node lowers the bound,
 * and after a barrier every replica holds the smallest. {@code mvn package} runs it with the JVM flags and the agent
 * that the pom's Surefire configuration adds.
 */
@Timeout(60)
class MinimumTest {
    @Test
    void everyReplicaSeesTheSmallestBound() {
        LocalCluster.run(3, cluster -> {
            Minimum best = cluster.replicated("best", Minimum::new);
            best.set(100 + cluster.nodeId());
            cluster.barrier();
            assertEquals(100, best.get());
        });
    }
}
