package dev.cumulus.bench;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Which node a node JVM is, from its command line, for the per-node thread times. */
class NodeCpuWatchTest {
    @Test
    void theNodeIdComesFromTheLaunchProperty() {
        assertEquals(Optional.of(1), NodeCpuWatch.nodeId(List.of("-Xss1m", "-Dcumulus.node.id=1", "-cp", "x",
            "dev.cumulus.examples.colouring.MapColouring")));
    }

    @Test
    void aCommandLineWithoutOneOrWithABadOneNamesNoNode() {
        assertEquals(Optional.empty(), NodeCpuWatch.nodeId(List.of("-cp", "x", "Main")));
        assertEquals(Optional.empty(), NodeCpuWatch.nodeId(List.of("-Dcumulus.node.id=x", "Main")));
    }
}
