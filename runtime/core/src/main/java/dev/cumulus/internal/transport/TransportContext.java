package dev.cumulus.internal.transport;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.RunSecret;

import java.util.List;

/**
 * Configuration of one node's transport, validated at construction.
 *
 * @param aeronDir          media driver directory to connect to (the driver must be running)
 * @param udp               true: each node subscribes at its {@code endpoints} entry over UDP; false: Aeron IPC on
 *                          one shared driver (all nodes on one host)
 * @param ipcWithinHost     with {@code udp}: peers whose endpoint names the same host as this node's share this node's
 *                          driver and are reached over IPC (nodes spread over hosts, one driver per host); UDP only to
 *                          the others
 * @param endpoints         {@code host:port} per node id (UDP only)
 * @param streamBase        first stream id; a run uses {@code streamBase .. streamBase + 3 * size}
 * @param runTag            32-bit tag of the run; frames carrying another tag are dropped
 * @param dataTermLength    term length of data streams (power of two, 64 KiB..1 GiB); larger messages are chunked
 * @param maxMessageBytes   largest message a node accepts (reassembly bound)
 * @param secret            the run's secret: every frame over UDP is sealed under keys derived from it (nodes with
 *                          another secret are strangers whose frames are dropped)
 * @param sealing           what sealing UDP frames get ({@link FrameSealing}); IPC frames are never sealed
 */
public record TransportContext(
    String aeronDir,
    boolean udp,
    boolean ipcWithinHost,
    List<String> endpoints,
    int streamBase,
    int runTag,
    int dataTermLength,
    int maxMessageBytes,
    RunSecret secret,
    FrameSealing sealing) {

    public static final int DEFAULT_DATA_TERM_LENGTH = 8 * 1024 * 1024;
    public static final int DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;
    static final int CONTROL_TERM_LENGTH = 256 * 1024;

    /**
     * One host's nodes over IPC ({@code udp} false), or every node over UDP, with a fresh secret: the nodes that share
     * this context are one run, and frames over UDP carry a MAC.
     */
    public TransportContext(String aeronDir, boolean udp, List<String> endpoints, int streamBase, int runTag,
                            int dataTermLength, int maxMessageBytes) {
        this(aeronDir, udp, false, endpoints, streamBase, runTag, dataTermLength, maxMessageBytes,
            RunSecret.generate(), FrameSealing.MAC);
    }

    /** As the canonical constructor with a fresh secret and frames over UDP authenticated ({@link FrameSealing#MAC}). */
    public TransportContext(String aeronDir, boolean udp, boolean ipcWithinHost, List<String> endpoints,
                            int streamBase, int runTag, int dataTermLength, int maxMessageBytes) {
        this(aeronDir, udp, ipcWithinHost, endpoints, streamBase, runTag, dataTermLength, maxMessageBytes,
            RunSecret.generate(), FrameSealing.MAC);
    }

    public TransportContext {
        if (aeronDir == null || aeronDir.isBlank()) {
            throw new CumulusException("transport: no Aeron directory given");
        }
        if (ipcWithinHost && !udp) {
            throw new CumulusException("transport: IPC within a host is a variant of the UDP transport");
        }
        if (secret == null || sealing == null) {
            throw new CumulusException("transport: no run secret or sealing given");
        }
        endpoints = List.copyOf(endpoints);
        if (udp && endpoints.size() > SealKeys.MAX_NODES) {
            throw new CumulusException("transport: sealed UDP frames name at most " + SealKeys.MAX_NODES + " nodes");
        }
        if (Integer.bitCount(dataTermLength) != 1 || dataTermLength < 64 * 1024 || dataTermLength > (1 << 30)) {
            throw new CumulusException("transport: data term length " + dataTermLength
                + " must be a power of two between 64 KiB and 1 GiB");
        }
        if (maxMessageBytes < 1024) {
            throw new CumulusException("transport: max message size " + maxMessageBytes + " is below 1 KiB");
        }
        for (String e : endpoints) {
            int colon = e.lastIndexOf(':');
            if (colon <= 0 || colon == e.length() - 1) {
                throw new CumulusException("transport: endpoint '" + e + "' is not host:port");
            }
        }
    }

    /** True when node {@code peer} shares {@code nodeId}'s host and driver, so the two talk over IPC. */
    boolean ipcBetween(int nodeId, int peer) {
        return ipcWithinHost && endpointHost(nodeId).equals(endpointHost(peer));
    }

    /** The host part of node {@code nodeId}'s endpoint. */
    String endpointHost(int nodeId) {
        String e = endpoints.get(nodeId);
        return e.substring(0, e.lastIndexOf(':'));
    }

    /** The run tag of the run named {@code runId}: every frame of the run carries it. */
    public static int runTagOf(String runId) {
        return runId.hashCode();
    }

    /** The Aeron stream id on which node {@code nodeId} receives {@code channel}. */
    public int streamId(int nodeId, Channel channel) {
        return streamBase + nodeId * Channel.values().length + channel.ordinal();
    }
}
