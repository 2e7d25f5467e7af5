package dev.cumulus.internal.service;

import dev.cumulus.Access;
import dev.cumulus.AsyncTicket;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.node.DutyCycle;
import dev.cumulus.internal.node.NodeSettings;
import dev.cumulus.internal.rpc.AccessRule;
import dev.cumulus.internal.rpc.RemoteObjects;
import dev.cumulus.internal.rpc.RpcEngine;
import dev.cumulus.internal.transport.Channel;
import dev.cumulus.internal.transport.MessageHandler;
import dev.cumulus.internal.transport.NodeTransport;
import dev.cumulus.internal.transport.TransportContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ManyToOneConcurrentLinkedQueue;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * A client of a standing cluster: a member of the cluster's transport with an id outside the servers'
 * ({@code size..size + CLIENT_SLOTS - 1}) that takes no part in the servers' membership (no heartbeats, barriers or
 * ordered writes). It runs the same RPC engine, duty cycle and remote-object API as a node: its calls, and the calls
 * servers make to objects it exported, travel as between nodes. It attaches to every server at start
 * ({@link ClientGate}) and detaches when closed.
 *
 * <p>It keeps at most {@link ClientAdmission#MAX_CALLS_PER_CLIENT} calls outstanding on each server, counting the
 * calls the server counts ({@link ClientCalls#counts}): a call past it waits in its start, its thread parked, until an
 * answer from that server frees room, the server is gone, or the call's timeout passes
 * ({@link RpcEngine#limitCallsPerServer}). So a program that starts calls faster than a server answers them is slowed
 * down instead of refused.
 *
 * <p>Threads: the duty cycle's (main, standby) and waiting callers, as on a node.
 */
public final class ClientNode implements AutoCloseable {
    private static final int FRAGMENT_LIMIT = 16;
    /** How long a client waits for a server's stream to connect at start. */
    private static final long CONNECT_WAIT_MS = 10_000;

    private final int clientId;
    private final int servers;
    private final NodeTransport transport;
    private final RpcEngine rpc;
    private final RemoteObjects remoteObjects;
    private final DutyCycle dutyCycle;
    private final NodeSettings settings;
    private final AtomicLong nextRemoteNewNode;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ClientIOService io;
    /** Why a server is gone (its process ended), or null while it runs. */
    private final IntFunction<String> serverFate;

    /** The duty cycle of a client: polls, runs commands, hands data messages to the RPC engine. Never blocks. */
    private static final class ClientAgent implements Agent, MessageHandler {
        private final ManyToOneConcurrentLinkedQueue<Runnable> commands = new ManyToOneConcurrentLinkedQueue<>();
        private volatile NodeTransport transport;
        private volatile RpcEngine rpc;

        @Override
        public int doWork() {
            int work = transport.poll(FRAGMENT_LIMIT);
            Runnable command;
            while ((command = commands.poll()) != null) {
                command.run();
                work++;
            }
            return work;
        }

        @Override
        public void onMessage(int source, Channel channel, DirectBuffer buffer, int offset, int length) {
            if (channel == Channel.DATA && source < transport.size()) { // servers only: clients never talk directly
                rpc.onData(source, buffer, offset, length);
            }
        }

        @Override
        public void onClose() {
            transport.close();
        }

        @Override
        public String roleName() {
            return "cumulus-client";
        }
    }

    private ClientNode(int clientId, int servers, NodeTransport transport, ClientAgent agent, NodeSettings settings,
                       ClassLoader loader, IntFunction<String> serverFate) {
        this.clientId = clientId;
        this.serverFate = serverFate;
        this.servers = servers;
        this.transport = transport;
        this.settings = settings;
        this.nextRemoteNewNode = new AtomicLong(1); // as node 0's: its program is one process, node 0
        long maxSendWaitNs = TimeUnit.MILLISECONDS.toNanos(settings.heartbeatTimeoutMs() * 4);
        this.rpc = new RpcEngine(clientId, servers, transport.capacity(), new RpcEngine.DataSender() {
            @Override
            public void send(int destination, DirectBuffer buffer, int offset, int length) {
                transport.sendUnrung(destination, Channel.DATA, buffer, offset, length, maxSendWaitNs);
            }

            @Override
            public void ring(int node) {
                transport.ring(node);
            }
        }, loader, settings.callTimeoutNs());
        agent.rpc = rpc;
        // never more calls outstanding on a server than it admits: the rest wait in their start, never refused
        rpc.limitCallsPerServer(ClientAdmission.MAX_CALLS_PER_CLIENT, ClientCalls::counts);
        rpc.exportSystem(ClassSource.OBJECT_ID, new LoaderClassSource(loader), ClassSource.class);
        this.io = new ClientIOService(System.in, System.out, System.err);
        rpc.exportSystem(ClientIO.OBJECT_ID, io, ClientIO.class); // what its objects print, the streams they open
        this.remoteObjects = new RemoteObjects(rpc, servers, loader, Duration.ZERO);
        this.dutyCycle = DutyCycle.ofClient(agent, transport, FRAGMENT_LIMIT, t -> {
            System.err.println("cumulus: client " + clientId + " hit an internal error: " + t);
            t.printStackTrace();
        }, settings.scheduling(), "cumulus-client-" + clientId);
        rpc.scheduler(dutyCycle);
    }

    /**
     * Joins the transport of a standing cluster of {@code servers} servers as client {@code clientId} and attaches to
     * every server as its admin, with the cluster's admin {@code credential} (tests and the administration commands).
     *
     * @throws CumulusException when a server cannot be reached or refuses the credential (nothing is left running)
     */
    public static ClientNode connect(TransportContext context, int servers, int clientId, byte[] credential,
                                     NodeSettings settings, ClassLoader loader) {
        return connect(context, servers, clientId, AccessRule.ADMIN, credential, settings, loader, server -> null, null,
            0);
    }

    /**
     * Joins the transport of a standing cluster of {@code servers} servers as client {@code clientId} and attaches to
     * every server as {@code principal}, with the {@code key} its credential holds
     * ({@link ClientAdmission#clientKey}). {@code serverFate} tells why a server is gone (its process ended), or null
     * while it runs: the servers gone now are not attached to, and the client's calls to them fail at once with a
     * {@link dev.cumulus.NodeFailedException} naming them; so do those to a server that ends later, once
     * {@link #checkServers} or a send that finds it disconnected asks.
     *
     * Over UDP (servers on several hosts) {@code nonce} chooses this attach's session
     * ({@link ClientAdmission#session}) and the client's frames count from {@code lastCounter + 1}; over IPC both are
     * unused ({@code null}, 0).
     *
     * @throws CumulusException when a server cannot be reached or refuses the credential, or every server is gone
     *                          (nothing is left running)
     */
    public static ClientNode connect(TransportContext context, int servers, int clientId, String principal, byte[] key,
                                     NodeSettings settings, ClassLoader loader,
                                     IntFunction<String> serverFate, byte[] nonce, long lastCounter) {
        if (clientId < servers || clientId >= servers + NodeTransport.CLIENT_SLOTS) {
            throw new CumulusException("client id " + clientId + " is outside " + servers + ".."
                + (servers + NodeTransport.CLIENT_SLOTS - 1));
        }
        ClientAgent agent = new ClientAgent();
        IntFunction<String> sendersFate = server -> { // a send found the server gone: its waiting calls fail too
            String reason = serverFate.apply(server);
            if (reason != null) {
                agent.commands.add(() -> agent.rpc.onNodeGone(server, reason));
            }
            return reason;
        };
        NodeTransport transport = NodeTransport.client(context, clientId, servers, agent,
            nonce == null ? null : ClientAdmission.session(key, nonce), lastCounter, sendersFate);
        agent.transport = transport;
        ClientNode client;
        try {
            client = new ClientNode(clientId, servers, transport, agent, settings, loader, serverFate);
        } catch (RuntimeException | Error e) {
            transport.close();
            throw e;
        }
        client.dutyCycle.start();
        try {
            if (client.checkServers() >= servers) {
                throw new CumulusException("every server of the cluster is gone (" + serverFate.apply(0) + "); stop "
                    + "it with 'cumulus cluster stop' and start it again");
            }
            client.attach(principal, key, nonce);
            client.remoteObjects.actAs(principal);
        } catch (RuntimeException | Error e) {
            client.shutDown();
            throw e;
        }
        return client;
    }

    /**
     * Attaches to every server that is not gone at once as {@code principal} (asynchronous calls, then their results
     * in turn): each server's first answer to a new client waits for its stream to the client, so one at a time would
     * add those waits up.
     */
    private void attach(String principal, byte[] key, byte[] nonce) {
        byte[] proof = ClientAdmission.proof(key, clientId, principal);
        long pid = ProcessHandle.current().pid();
        String endpoint = transport.localEndpoint(); // over UDP: where the servers' frames are to come
        String host = ClientAdmission.hostIdentity();
        ClientGate[] tickets = new ClientGate[servers];
        for (int server = 0; server < servers; server++) {
            if (goneReason(server) != null) {
                continue;
            }
            awaitConnected(server);
            tickets[server] = AsyncTicket.newTicket(gate(server));
            if (endpoint == null) {
                tickets[server].attach(clientId, pid, principal, proof);
            } else {
                tickets[server].attachRemote(clientId, pid, principal, proof, endpoint, nonce, host);
            }
        }
        for (ClientGate ticket : tickets) {
            if (ticket != null) {
                AsyncTicket.getResult(ticket);
            }
        }
        if (endpoint != null) {
            Thread.ofVirtual().name("cumulus-client-" + clientId + "-lease").start(this::keepLeases);
        }
    }

    /**
     * Tells every server that serves, once a {@link ClientAdmission#LEASE_INTERVAL_NS}, that this client is there
     * ({@link ClientGate#alive}): a server on another host cannot watch its process. Until the client closes.
     */
    private void keepLeases() {
        while (!closed.get()) {
            LockSupport.parkNanos(ClientAdmission.LEASE_INTERVAL_NS); // the lease's own pace
            for (int server = 0; server < servers && !closed.get(); server++) {
                if (goneReason(server) == null) {
                    try {
                        gate(server).alive(clientId);
                    } catch (RuntimeException e) {
                        // a server going away: its calls fail for the program, which says why
                    }
                }
            }
        }
    }

    /** Why server {@code server} is gone for this client (its process ended), or {@code null} while it serves. */
    public String goneReason(int server) {
        return rpc.goneReason(server);
    }

    private void awaitConnected(int server) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CONNECT_WAIT_MS);
        while (!transport.isConnected(server, Channel.DATA)) {
            if (System.nanoTime() - deadline > 0) {
                throw new CumulusException("client " + clientId + " cannot reach server " + server + " within "
                    + CONNECT_WAIT_MS + " ms; does the cluster still serve? ('cumulus cluster list')");
            }
            Thread.onSpinWait(); // the duty cycle runs the Aeron conductor that connects the stream
            Thread.yield();
        }
    }

    private ClientGate gate(int server) {
        return rpc.proxy(new RemoteRef(server, ClientGate.OBJECT_ID, ClientGate.class.getName()), ClientGate.class,
            "cumulus.ClientGate");
    }

    /**
     * Starts this client's profile window on every server ({@link ClientGate#profile}): from now on each records the
     * calls this client makes and those to, and moves of, the objects it makes there.
     */
    public void startServerProfiles() {
        checkOpen();
        for (int server = 0; server < servers; server++) {
            gate(server).profile(clientId);
        }
    }

    /**
     * Server {@code server}'s share of this client's profile, as a JFR file (fetched in chunks); call before
     * {@link #close}, which ends the windows.
     */
    public byte[] serverProfile(int server) {
        checkOpen();
        ClientGate gate = gate(server);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        while (true) {
            byte[] chunk = gate.profiled(clientId, all.size());
            all.writeBytes(chunk);
            if (chunk.length < ClientGate.PROFILE_CHUNK_BYTES) {
                return all.toByteArray();
            }
        }
    }

    /**
     * A proxy for the system object {@code objectId} of server {@code server} (administration: {@code ClusterAdmin}).
     */
    public <T> T systemObject(int server, long objectId, Class<T> iface) {
        checkOpen();
        return rpc.proxy(new RemoteRef(server, objectId, iface.getName()), iface, "cumulus." + iface.getSimpleName());
    }

    /** This client's id in the cluster's transport (at least {@link #servers()}). */
    public int clientId() {
        return clientId;
    }

    /** Number of servers. */
    public int servers() {
        return servers;
    }

    public <T> T export(T object, Class<T> iface, String name, Access access) {
        checkOpen();
        return remoteObjects.export(object, iface, name, access);
    }

    public <T> T lookup(String name, Class<T> iface, Duration wait) {
        checkOpen();
        return remoteObjects.lookup(name, iface, wait);
    }

    public Duration lookupWait() {
        return settings.lookupWait();
    }

    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int server) {
        return remoteNew(impl, iface, name, server, Access.owner());
    }

    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int server, Access access) {
        checkOpen();
        return remoteObjects.remoteNew(impl, iface, name, server, access);
    }

    /** {@code remoteNew} on the servers in turn (those that are not gone). */
    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name) {
        int server = (int) (nextRemoteNewNode.getAndIncrement() % servers);
        for (int tried = 1; tried < servers && goneReason(server) != null; tried++) {
            server = (int) (nextRemoteNewNode.getAndIncrement() % servers);
        }
        return remoteNew(impl, iface, name, server);
    }

    /**
     * Asks the server fate about every server: the calls waiting for one that is gone fail now, and later ones at
     * once, with a {@link dev.cumulus.NodeFailedException} that names it and why. Any thread.
     *
     * @return how many servers are gone
     */
    public int checkServers() {
        int gone = 0;
        for (int server = 0; server < servers; server++) {
            String reason = serverFate.apply(server);
            if (reason != null) {
                rpc.onNodeGone(server, reason);
                gone++;
            }
        }
        return gone;
    }

    /**
     * @throws CumulusException when this client has left its cluster
     */
    public void checkUsable() {
        checkOpen();
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new CumulusException("client " + clientId + " has left its cluster");
        }
    }

    /** Detaches from every server it can still reach, then stops. Idempotent. */
    @Override
    public void close() {
        if (closed.get()) {
            return;
        }
        for (int server = 0; server < servers; server++) {
            if (goneReason(server) != null) {
                continue; // a server that is gone has nothing to forget
            }
            try {
                gate(server).detach(clientId);
            } catch (RuntimeException e) {
                // a server that is gone has nothing to forget
            }
        }
        shutDown();
    }

    private void shutDown() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        rpc.close();
        dutyCycle.close();
        transport.close();
        io.close();
    }
}
