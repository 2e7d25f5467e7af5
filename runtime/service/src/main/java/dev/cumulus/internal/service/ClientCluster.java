package dev.cumulus.internal.service;

import dev.cumulus.Access;
import dev.cumulus.Barrier;
import dev.cumulus.Cloud;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.SharedDouble;
import dev.cumulus.SharedLong;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;
import dev.cumulus.array.SharedFloatArray;
import dev.cumulus.array.SharedIntArray;
import dev.cumulus.array.SharedLongArray;
import dev.cumulus.internal.auth.RunSecret;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.transport.FrameSealing;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * The {@link Cluster} a client of a standing cluster holds ({@code Cluster.connect(NAME)}, or {@code Cluster.join()}
 * under {@code cumulus run --attach NAME}): the remote-object API over a {@link ClientNode}. {@link #size()} is the
 * number of servers. The client is no node of the cluster (its transport id lies past the servers'), but its program
 * is one process: {@link #nodeId()} is 0, the program's only process (the master of a master-worker program), and
 * {@link #barrier()} returns at once, so an SPMD program whose node 0 drives the work (Babylon's matrix
 * multiplication) runs unchanged as a client, its workers on the servers. The other collective capabilities (named
 * barriers, clouds, shared arrays and scalars, the tuple space) belong to an SPMD run's nodes and throw here.
 */
public final class ClientCluster implements Cluster {
    /**
     * The system property {@code cumulus run --attach NAME --profile} sets: the run directory this client writes its
     * profile into when it closes ({@link ClientProfile}). Launcher-internal, no user setting (ARCHITECTURE.md,
     * "Launcher-internal properties").
     */
    public static final String PROFILE_PROPERTY = "cumulus.attach.profile";

    private final String name;
    private final ClientNode client;
    private final ClientSlot slot;
    /** This client's profile when its launcher asked for one ({@code --profile}), else null. */
    private final ClientProfile profile;

    private ClientCluster(String name, ClientNode client, ClientSlot slot) {
        this.name = name;
        this.client = client;
        this.slot = slot;
        try {
            this.profile = ClientProfile.startIfAsked(client);
        } catch (RuntimeException | Error e) {
            client.close();
            throw e;
        }
    }

    /**
     * Connects to the standing cluster {@code name} of this user on this host.
     *
     * @throws CumulusException when there is no such cluster, it does not serve, or it refuses the credential
     */
    public static Cluster connect(String name) {
        StandingClusterFile file = StandingClusterFile.read(name);
        ClientSlot slot = ClientSlot.take(file.clusterDir(), NodeTransport.CLIENT_SLOTS, name);
        try {
            ClientCredential credential = ClientCredential.forAttach(file, System.getProperty(ClientCredential.PROPERTY),
                System.getenv());
            return new ClientCluster(name, connectNode(file, slot, credential.client(), credential.key()), slot);
        } catch (RuntimeException | Error e) {
            slot.close();
            throw e;
        }
    }

    /**
     * Joins the cluster of {@code file} as the client of {@code slot} and attaches to every server as
     * {@code principal}, proving {@code key} (its credential's; the admin's is the admin credential itself).
     */
    static ClientNode connectNode(StandingClusterFile file, ClientSlot slot, String principal, byte[] key) {
        int clientId = file.servers() + slot.slot();
        NodeSettings settings = NodeSettings.of(0, file.servers(), NodeSettings.DEFAULT_HEARTBEAT_INTERVAL_MS,
            NodeSettings.DEFAULT_HEARTBEAT_TIMEOUT_MS, NodeSettings.DEFAULT_IDLE_STRATEGY, 1,
            System.getProperties()); // of a client: its idle strategy, call timeout and lookup wait
        boolean udp = !file.endpoints().isEmpty(); // servers on several hosts: UDP through the keeper's driver
        List<String> endpoints = new ArrayList<>(file.endpoints());
        while (udp && endpoints.size() <= clientId) {
            endpoints.add(file.clientAddress() + ":0"); // this client's, at its id: a free port
        }
        TransportContext transport = new TransportContext(file.driverDir(), udp, false, endpoints,
            file.streamBase(), file.runId().hashCode(), TransportContext.DEFAULT_DATA_TERM_LENGTH,
            TransportContext.DEFAULT_MAX_MESSAGE_BYTES, udp ? RunSecret.of(file.clientSecret()) : RunSecret.generate(),
            FrameSealing.MAC);
        byte[] nonce = null;
        long lastCounter = 0;
        if (udp) {
            nonce = new byte[ClientAdmission.SESSION_BYTES];
            new java.security.SecureRandom().nextBytes(nonce);
            lastCounter = slot.reserveCounters();
        }
        List<Optional<ProcessHandle>> servers = serverProcesses(file);
        ClientNode client = ClientNode.connect(transport, file.servers(), clientId, principal, key, settings,
            contextLoader(), serverFate(file, servers), nonce, lastCounter);
        watchServers(servers, client);
        return client;
    }

    /**
     * A server whose process ends is gone for this client: its calls fail with a {@code NodeFailedException} naming
     * it (the servers share this host with their clients, so the OS tells); the other servers serve on. The JDK learns
     * that a process which is not its child ended by asking every 300 ms at first, less often the longer it waits (up
     * to 5 s), each server on its own schedule, so when it tells of one server every server is asked again at once;
     * and a send to a server that disconnected asks about it before it gives up. A cluster that was stopped is so gone
     * for the client as a whole, and a call to a server whose own answer had not come yet fails naming it, not as a
     * send to a peer that went away.
     */
    private static void watchServers(List<Optional<ProcessHandle>> servers, ClientNode client) {
        Runnable sweep = client::checkServers;
        for (Optional<ProcessHandle> server : servers) {
            server.ifPresentOrElse(p -> p.onExit().thenRun(sweep), sweep);
        }
    }

    /**
     * The processes of {@code file}'s servers, looked up once: a handle knows its process's start time, so a pid the
     * OS gives to a new process later does not pass for the server.
     */
    private static List<Optional<ProcessHandle>> serverProcesses(StandingClusterFile file) {
        return file.serverPids().stream().map(ProcessHandle::of).toList();
    }

    /** Why server {@code server} of {@code file} is gone (its process ended), or null while it runs or is no server. */
    private static IntFunction<String> serverFate(StandingClusterFile file, List<Optional<ProcessHandle>> servers) {
        return server -> {
            if (server < 0 || server >= servers.size()) {
                return null; // a client's id: its end is told by the servers
            }
            try {
                return servers.get(server).map(ProcessHandle::isAlive).orElse(false) ? null : goneReason(file, server);
            } catch (RuntimeException e) {
                return null; // not told: the send's own error stands
            }
        };
    }

    private static String goneReason(StandingClusterFile file, int server) {
        return "server " + server + " (pid " + file.serverPids().get(server) + ") of cluster " + file.name()
            + " ended: it was stopped or died ('cumulus cluster list' shows whether the cluster still serves, and "
            + "with how many servers)";
    }

    private static ClassLoader contextLoader() {
        ClassLoader l = Thread.currentThread().getContextClassLoader();
        return l != null ? l : ClientCluster.class.getClassLoader();
    }

    private CumulusException notForClients(String what) {
        return new CumulusException(what + " is collective: it belongs to the nodes of an SPMD run, not to a client of "
            + "the standing cluster " + name + "; clients use remoteNew, export and lookup");
    }

    /** 0: the client program's only process (see the class comment). */
    @Override
    public int nodeId() {
        return 0;
    }

    @Override
    public int size() {
        return client.servers();
    }

    /** Returns at once: the client program's only process is the barrier's only member. */
    @Override
    public void barrier() {
        client.checkUsable();
    }

    @Override
    public <T> T export(T object, Class<T> iface, String name) {
        return client.export(object, iface, name, Access.owner());
    }

    @Override
    public <T> T export(T object, Class<T> iface, String name, Access access) {
        return client.export(object, iface, name, access);
    }

    @Override
    public <T> T lookup(String name, Class<T> iface) {
        return client.lookup(name, iface, client.lookupWait());
    }

    @Override
    public <T> T lookup(String name, Class<T> iface, Duration wait) {
        return client.lookup(name, iface, wait);
    }

    @Override
    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int node) {
        return client.remoteNew(impl, iface, name, node);
    }

    @Override
    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int node, Access access) {
        return client.remoteNew(impl, iface, name, node, access);
    }

    @Override
    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name) {
        return client.remoteNew(impl, iface, name);
    }

    @Override
    public PastSet pastSet() {
        throw notForClients("pastSet()");
    }

    @Override
    public PastSet pastSet(Placement placement) {
        throw notForClients("pastSet()");
    }

    @Override
    public <T extends Cloud.Root> T replicated(String name, Supplier<T> factory) {
        throw notForClients("replicated()");
    }

    @Override
    public SharedDoubleArray sharedDoubleArray(String name, ArrayShape shape) {
        throw notForClients("sharedDoubleArray()");
    }

    @Override
    public SharedFloatArray sharedFloatArray(String name, ArrayShape shape) {
        throw notForClients("sharedFloatArray()");
    }

    @Override
    public SharedLongArray sharedLongArray(String name, ArrayShape shape) {
        throw notForClients("sharedLongArray()");
    }

    @Override
    public SharedIntArray sharedIntArray(String name, ArrayShape shape) {
        throw notForClients("sharedIntArray()");
    }

    @Override
    public Barrier barrier(String name, int localThreads) {
        throw notForClients("barrier()");
    }

    @Override
    public Barrier localBarrier(String name, int threads) {
        throw notForClients("localBarrier()");
    }

    @Override
    public SharedLong sharedLong(String name) {
        throw notForClients("sharedLong()");
    }

    @Override
    public SharedDouble sharedDouble(String name) {
        throw notForClients("sharedDouble()");
    }

    /** Detaches from the servers and leaves; the client's slot is free again. */
    @Override
    public void close() {
        try {
            if (profile != null) {
                profile.finish(client);
            }
            client.close();
        } finally {
            slot.close();
        }
    }
}
