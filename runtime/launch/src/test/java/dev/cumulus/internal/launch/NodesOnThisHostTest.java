package dev.cumulus.internal.launch;

import dev.cumulus.internal.launch.LaunchConfig.TransportMode;
import dev.cumulus.internal.node.NodeSettings;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How many nodes a launched node counts on its host, which its scheduling settings size themselves by. */
class NodesOnThisHostTest {
    private static final List<String> ENDPOINTS = List.of("198.18.0.2:40100", "198.18.0.2:40101",
        "198.18.0.3:40102", "[fd00::1]:40103");

    private static LaunchConfig config(int node, TransportMode mode, List<String> endpoints) {
        return new LaunchConfig("run", node, 4, Path.of("."), null, mode, endpoints, 1000,
            NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS, NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS,
            NodeSettings.DEFAULT_IDLE_STRATEGY, false);
    }

    @Test
    void ipcCountsEveryNodeUdpOnlyItselfAndHostsThoseWithItsEndpointsHost() {
        assertEquals(4, NodeRuntime.nodesOnThisHost(config(0, TransportMode.IPC, List.of())));
        assertEquals(1, NodeRuntime.nodesOnThisHost(config(0, TransportMode.UDP, ENDPOINTS)));
        assertEquals(2, NodeRuntime.nodesOnThisHost(config(1, TransportMode.HOSTS, ENDPOINTS)));
        assertEquals(1, NodeRuntime.nodesOnThisHost(config(2, TransportMode.HOSTS, ENDPOINTS)));
        assertEquals(1, NodeRuntime.nodesOnThisHost(config(3, TransportMode.HOSTS, ENDPOINTS)));
    }
}
