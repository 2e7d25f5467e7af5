package dev.cumulus.internal.transport;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.exceptions.AeronException;
import io.aeron.exceptions.DriverTimeoutException;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import dev.cumulus.internal.auth.RunSecret;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.AgentInvoker;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * One node's end of the transport: a subscription per {@link Channel} on which it receives, and a publication per
 * peer and channel. Everything above speaks node ids, channels and buffers; this is the only place that knows Aeron.
 * Nodes spread over hosts ({@link TransportContext#ipcWithinHost()}) also subscribe over IPC, where the peers of their
 * own host (one driver per host) publish; the peers of other hosts publish over UDP.
 *
 * <p>Threads: {@link #poll(int)} is called by the node's agent thread only. {@link #trySend} and {@link #send} may be
 * called from any thread (Aeron's concurrent publications). Messages larger than one Aeron message are split into
 * chunks tagged with a per-sender message id and reassembled here, so concurrent senders may interleave them.
 *
 * <p>Every message travels behind a frame header: {@link FrameHeaderFlyweight} has its layout. Over UDP every frame
 * is sealed under the run's secret ({@link SealedPublication} on the way out, {@link FrameOpener} on the way in): a
 * frame without a valid seal is dropped, counted and told ({@link FrameRejections}), never decoded. IPC frames stay on
 * this host, inside the run's owner-only driver directory, and are not sealed.
 *
 * <p>Errors: a frame whose handling throws is dropped, counted and reported to {@link TransportErrors} (distinct,
 * rate-limited: one bad frame sent a hundred thousand times prints a line and a count), as are Aeron's own errors and
 * dropped chunked messages.
 */
public final class NodeTransport implements AutoCloseable {
    /** {@code Channel.values()} copies its array on every call; the poll loop needs it every time. */
    private static final Channel[] CHANNELS = Channel.values();
    /**
     * A standing cluster's client calls and is called only ({@link Channel#DATA}): it takes no part in membership or
     * the ordered broadcast, so it opens no other streams (fewer round trips to the driver when it joins).
     */
    private static final Channel[] CLIENT_CHANNELS = {Channel.DATA};
    /** The channels this transport subscribes and publishes on. */
    private final Channel[] channels;
    /** {@link #trySend} result: the message is in the destination's log (or the local queue). */
    public static final int SENT = 0;
    /** {@link #trySend} result: the destination has not subscribed yet (still starting, or gone). */
    public static final int NOT_CONNECTED = -1;
    /** {@link #trySend} result: the destination is behind; try again shortly. */
    public static final int BACK_PRESSURED = -2;
    /** {@link #trySend} result: this transport is closed. */
    public static final int CLOSED = -3;

    /**
     * Frame size of IPC streams: above it Aeron splits a message into fragments and the
     * receiver joins them. IPC has no network to fit, so the frame is 8 KiB instead of UDP's 1,408 B: a 2 KiB array
     * partition travels whole (multiple of 32, at most an eighth of the smallest term).
     */
    static final int IPC_MTU = 8192;
    static final int WHOLE_HEADER = FrameHeaderFlyweight.WHOLE_LENGTH;
    static final int CHUNK_HEADER = FrameHeaderFlyweight.CHUNK_LENGTH;
    private static final int MAX_CHUNK_PAYLOAD = 512 * 1024;
    private static final long CONNECT_WAIT_NS = 30_000_000_000L;
    /**
     * How long a send waits for a peer that was connected and is not any more (its subscription went: its process
     * ended, or for UDP it has not been heard from for Aeron's connection timeout) before it gives up; a peer that never
     * connected yet is waited for {@link #CONNECT_WAIT_NS}.
     */
    private static final long GONE_WAIT_NS = 200_000_000L;

    private final TransportContext context;
    private final int nodeId;
    private final int size;
    /** Servers and client slots: ids {@code size..capacity-1} are clients of a standing cluster. */
    private final int capacity;
    /** How many clients a standing cluster admits at once: ids {@code size..size + CLIENT_SLOTS - 1}. */
    public static final int CLIENT_SLOTS = 64;
    private final Aeron aeron;
    private final AgentInvoker conductor;
    /**
     * The Aeron client conductor runs every 16th poll, and on every poll while it has work: it keeps the client alive
     * and notices new images (its timers count in hundreds of ms), yet each run reads the clock (~25 ns on this kind of
     * host) and checks its timers — in a busy poll loop that a message waits for.
     */
    private static final int CONDUCTOR_EVERY_MASK = 15;
    private int cycles;
    private boolean conductorBusy = true;
    private final Publication[][] publications;
    /** Per destination: a send to it has gone through (written by any sender; a stale false only waits longer). */
    private final boolean[] connectedOnce;
    private final Subscription[] subscriptions;
    private final FragmentHandler[] assemblers;
    /**
     * With {@link TransportContext#ipcWithinHost()} and a peer on this host: the IPC subscription per channel on which
     * those peers' messages arrive (UDP brings the others'), with assemblers of their own; else null.
     */
    private final Subscription[] ipcSubscriptions;
    private final FragmentHandler[] ipcAssemblers;
    /** Per peer and channel: the sealed publication over UDP, or null (IPC, or unsealed for the bench). */
    private final SealedPublication[][] sealed;
    /** A server's clients over UDP: the cluster's client secret ({@link ClientSeals}) and each client's endpoint. */
    private final RunSecret clientSecret;
    private final String[] clientEndpoints;
    /** Checks sealed frames arriving over UDP; null when this node receives no UDP or seals nothing. */
    private final FrameOpener opener;
    private final FrameRejections rejections;
    private final ChunkAssembler chunkAssembler;
    private final TransportErrors errors;
    private final java.util.function.Consumer<String> errorOutput;
    /** Why a peer is gone, or null when that is not known (a node of a run: its failure detector tells). */
    private final IntFunction<String> peerFate;
    private static final IntFunction<String> NO_FATE = peer -> null;
    /** A client told its user once that the cluster's media driver is gone. */
    private final java.util.concurrent.atomic.AtomicBoolean driverGoneTold = new java.util.concurrent.atomic.AtomicBoolean();
    /** Frames whose handling threw (dropped). Polling thread writes, any reads. */
    private volatile long failedFrames;
    private final MessageHandler handler;
    private final ConcurrentLinkedQueue<LocalMessage> loopback = new ConcurrentLinkedQueue<>();
    private final AtomicReferenceArray<String> failedPeers;
    private final AtomicLong nextMessageId = new AtomicLong();
    /** Each sending thread's chunk header, over a buffer of its own. */
    private final ThreadLocal<FrameHeaderFlyweight> chunkHeaders =
        ThreadLocal.withInitial(() -> new FrameHeaderFlyweight().wrap(new UnsafeBuffer(new byte[CHUNK_HEADER]), 0));
    /** The header of every whole message this node sends: the same bytes each time, written once, only read. */
    private final UnsafeBuffer wholeHeader = new UnsafeBuffer(new byte[WHOLE_HEADER]);
    /** The header of the frame being received (polling thread). */
    private final FrameHeaderFlyweight inbound = new FrameHeaderFlyweight();
    private final UnsafeBuffer loopbackView = new UnsafeBuffer(0, 0);
    /** The host's doorbells (Aeron IPC on Linux), or null: then the node parks in timed steps when idle. */
    private final Doorbells doorbells;
    private volatile boolean closed;
    /** Senders on other threads than the agent's: {@link #close} waits for them before it unmaps Aeron's buffers. */
    private final SendGate sending = new SendGate();

    private record LocalMessage(Channel channel, byte[] bytes) {
    }

    /**
     * Connects to the driver, subscribes this node's streams and adds publications to every peer.
     *
     * @throws CumulusException with the cause when the driver is not there or an endpoint cannot be bound
     */
    public NodeTransport(TransportContext context, int nodeId, int size, MessageHandler handler) {
        this(context, nodeId, size, size, handler, SystemNanoClock.INSTANCE, System.err::println, null, 0, NO_FATE);
    }

    /**
     * A transport of a standing cluster (IPC on one host): nodes {@code 0..size-1} are its servers, ids
     * {@code size..capacity-1} its clients' (see {@link #CLIENT_SLOTS}). A server adds its publication to a client when
     * it first sends to it (over UDP: when it learns where, {@link #clientAttached}); a client ({@link #client})
     * publishes to the servers only.
     *
     * @throws CumulusException as the other constructor
     */
    public NodeTransport(TransportContext context, int nodeId, int size, int capacity, MessageHandler handler) {
        this(context, nodeId, size, capacity, handler, SystemNanoClock.INSTANCE, System.err::println, null, 0,
            NO_FATE);
    }

    /**
     * Client {@code clientId} of a standing cluster of {@code size} servers. Over UDP, {@code context}'s secret is the
     * cluster's client secret and its endpoint at {@code clientId} is where the client receives (port 0: any free
     * one, {@link #localEndpoint}); its frames to the servers count from {@code lastCounter + 1}, above every earlier
     * holder's of its id, and the servers' frames to it are sealed for {@code session} ({@link ClientSeals}).
     * {@code serverFate} tells why a server is gone (its process ended), or null while it runs: a send to a server
     * that was connected and is not any more asks it before giving up, and fails naming the server when it is gone.
     */
    public static NodeTransport client(TransportContext context, int clientId, int size, MessageHandler handler,
                                       byte[] session, long lastCounter, IntFunction<String> serverFate) {
        return new NodeTransport(context, clientId, size, size + CLIENT_SLOTS, handler, SystemNanoClock.INSTANCE,
            System.err::println, session, lastCounter, serverFate);
    }

    /** As the public constructor, with the clock of the reassembly and error log and the error log's output. */
    NodeTransport(TransportContext context, int nodeId, int size, MessageHandler handler, NanoClock clock,
                  java.util.function.Consumer<String> errorOutput) {
        this(context, nodeId, size, size, handler, clock, errorOutput, null, 0, NO_FATE);
    }

    /**
     * The whole constructor: a client's {@code session}, {@code lastCounter} and {@code peerFate} as {@link #client}
     * says of its {@code serverFate}.
     */
    NodeTransport(TransportContext context, int nodeId, int size, int capacity, MessageHandler handler,
                          NanoClock clock, java.util.function.Consumer<String> errorOutput, byte[] session,
                          long lastCounter, IntFunction<String> peerFate) {
        if (capacity < size || nodeId < 0 || nodeId >= capacity) {
            throw new CumulusException("transport: node id " + nodeId + " is outside 0.." + (capacity - 1));
        }
        this.capacity = capacity;
        this.channels = nodeId >= size ? CLIENT_CHANNELS : CHANNELS;
        this.context = context;
        this.nodeId = nodeId;
        new FrameHeaderFlyweight().wrap(wholeHeader, 0).header(FrameHeaderFlyweight.WHOLE, nodeId, context.runTag());
        this.size = size;
        this.handler = handler;
        this.failedPeers = new AtomicReferenceArray<>(capacity);
        this.errorOutput = errorOutput;
        this.peerFate = peerFate;
        this.errors = new TransportErrors("cumulus: node " + nodeId + " transport: ", clock,
            TransportErrors.DEFAULT_INTERVAL_NS, errorOutput);
        this.rejections = new FrameRejections(nodeId, clock, FrameRejections.DEFAULT_INTERVAL_NS, errorOutput);
        boolean sealing = context.udp() && context.sealing() != FrameSealing.NONE_FOR_BENCH;
        boolean client = nodeId >= size;
        SealKeys keys = !sealing ? null : client ? ClientSeals.toClient(context.secret(), nodeId, session)
            : new SealKeys(context.secret(), context.sealing() == FrameSealing.ENCRYPT);
        SealKeys sendKeys = sealing && client ? ClientSeals.toServers(context.secret(), nodeId) : keys;
        this.clientSecret = sealing && !client && capacity > size ? context.secret().derived(ClientSeals.PURPOSE) : null;
        this.clientEndpoints = context.udp() && !client ? new String[capacity] : null;
        this.opener = !sealing ? null : new FrameOpener(keys, nodeId, size, capacity,
            clientSecret == null ? null : c -> ClientSeals.toServers(clientSecret, c), context.runTag(), rejections);
        this.sealed = sealing ? new SealedPublication[capacity][] : null;
        this.chunkAssembler = new ChunkAssembler(context.maxMessageBytes(), 2L * context.maxMessageBytes(),
            ChunkAssembler.DEFAULT_EXPIRY_NS, clock, errors);
        try {
            this.aeron = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(context.aeronDir())
                .useConductorAgentInvoker(true)
                .driverTimeoutMs(10_000)
                .errorHandler(this::onAeronError));
        } catch (RuntimeException e) {
            throw new CumulusException("node " + nodeId + " could not connect to the Aeron media driver in "
                + context.aeronDir() + ": " + e.getMessage(), e);
        }
        this.conductor = aeron.conductorAgentInvoker();
        this.doorbells = context.udp() ? null : Doorbells.open(
            Path.of(context.aeronDir(), "cumulus-doorbells-" + Integer.toHexString(context.runTag())), capacity);
        this.publications = new Publication[capacity][Channel.values().length];
        this.connectedOnce = new boolean[capacity];
        this.subscriptions = new Subscription[Channel.values().length];
        this.assemblers = new FragmentHandler[Channel.values().length];
        boolean peerOnHost = false;
        for (int peer = 0; peer < size; peer++) {
            peerOnHost |= peer != nodeId && context.ipcBetween(nodeId, peer);
        }
        this.ipcSubscriptions = peerOnHost ? new Subscription[Channel.values().length] : null;
        this.ipcAssemblers = peerOnHost ? new FragmentHandler[Channel.values().length] : null;
        try {
            for (Channel ch : channels) {
                subscriptions[ch.ordinal()] = aeron.addSubscription(subscribeChannel(), context.streamId(nodeId, ch));
                Channel channel = ch;
                assemblers[ch.ordinal()] = new FragmentAssembler(opener != null
                    ? (buffer, offset, length, header) -> onSealedFrame(channel, buffer, offset, length, header)
                    : (buffer, offset, length, header) -> onFrame(channel, buffer, offset, length, header));
                if (peerOnHost) {
                    ipcSubscriptions[ch.ordinal()] = aeron.addSubscription("aeron:ipc", context.streamId(nodeId, ch));
                    ipcAssemblers[ch.ordinal()] = new FragmentAssembler(
                        (buffer, offset, length, header) -> onFrame(channel, buffer, offset, length, header));
                }
                for (int peer = 0; peer < size; peer++) {
                    if (peer != nodeId) {
                        publications[peer][ch.ordinal()] =
                            aeron.addPublication(publishChannel(peer, ch), context.streamId(peer, ch));
                        if (sealed != null && !context.ipcBetween(nodeId, peer)) {
                            if (sealed[peer] == null) {
                                sealed[peer] = new SealedPublication[Channel.values().length];
                            }
                            sealed[peer][ch.ordinal()] = new SealedPublication(publications[peer][ch.ordinal()],
                                sendKeys, nodeId, peer, ch, lastCounter);
                        }
                    }
                }
            }
        } catch (RuntimeException e) {
            aeron.close();
            String where = context.udp() ? " at " + context.endpoints().get(nodeId) : "";
            throw new CumulusException("node " + nodeId + " could not open its Aeron streams" + where + ": "
                + e.getMessage() + (context.udp() ? " (is the port in use? pick another base port)" : ""), e);
        }
    }

    private String subscribeChannel() {
        return context.udp() ? "aeron:udp?endpoint=" + context.endpoints().get(nodeId) : "aeron:ipc";
    }

    private String publishChannel(int peer, Channel ch) {
        int termLength = ch == Channel.CONTROL ? TransportContext.CONTROL_TERM_LENGTH : context.dataTermLength();
        if (context.udp() && peer >= size) {
            return "aeron:udp?endpoint=" + clientEndpoints[peer] + "|term-length=" + termLength;
        }
        return context.udp() && !context.ipcBetween(nodeId, peer)
            ? "aeron:udp?endpoint=" + context.endpoints().get(peer) + "|term-length=" + termLength
            : "aeron:ipc?term-length=" + termLength + "|mtu=" + IPC_MTU;
    }

    private void onAeronError(Throwable t) {
        if (closed) {
            return;
        }
        if (nodeId >= size && (t instanceof DriverTimeoutException || t instanceof AgentTerminationException)) {
            // a standing cluster's client whose cluster stopped: one line that says so, not Aeron's two traces, and
            // its sends to the servers fail naming them
            for (int server = 0; server < size; server++) {
                failedPeers.compareAndSet(server, null, driverGone(server));
            }
            if (driverGoneTold.compareAndSet(false, true)) {
                errorOutput.accept("cumulus: client " + nodeId + ": the standing cluster's media driver ("
                    + context.aeronDir() + ") is gone: the cluster was stopped, or its keeper died; calls to its "
                    + "servers fail ('cumulus cluster list' shows the clusters that serve)");
            }
            return;
        }
        errors.report(t);
    }

    public int nodeId() {
        return nodeId;
    }

    public int size() {
        return size;
    }

    /** The servers and the client slots: {@link #size()} unless this is a standing cluster's transport. */
    public int capacity() {
        return capacity;
    }

    /**
     * The polling thread waited (slept, parked) since its last poll: the next poll runs the client conductor, whose
     * keep-alive must not fall 16 waits behind. Called under the polling role.
     */
    public void conductorDue() {
        conductorBusy = true;
    }

    /**
     * Runs the Aeron client conductor (see {@link #CONDUCTOR_EVERY_MASK}) and delivers up to {@code fragmentLimit}
     * fragments per channel. Agent thread only.
     */
    public int poll(int fragmentLimit) {
        if (closed) {
            return 0;
        }
        int work = 0;
        if (conductorBusy || (++cycles & CONDUCTOR_EVERY_MASK) == 0) {
            int done = conductor.invoke();
            conductorBusy = done > 0;
            work += done;
        }
        LocalMessage local;
        int localBudget = fragmentLimit;
        while (localBudget-- > 0 && (local = loopback.poll()) != null) {
            loopbackView.wrap(local.bytes());
            handler.onMessage(nodeId, local.channel(), loopbackView, 0, local.bytes().length);
            work++;
        }
        for (Channel ch : channels) {
            work += subscriptions[ch.ordinal()].poll(assemblers[ch.ordinal()], fragmentLimit);
        }
        if (ipcSubscriptions != null) {
            for (Channel ch : channels) {
                work += ipcSubscriptions[ch.ordinal()].poll(ipcAssemblers[ch.ordinal()], fragmentLimit);
            }
        }
        return work;
    }

    /** Polls the {@link Channel#DATA} stream only (a quick look for remote calls and replies between full polls). */
    public int pollData(int fragmentLimit) {
        return pollOne(Channel.DATA, fragmentLimit);
    }

    /**
     * Polls the {@link Channel#DATA} and {@link Channel#ORDER} streams: the quick look of a node that runs an ordered
     * broadcast, whose replicated writes (a static sequencer's submissions and stamped writes) wait for it as a call
     * waits for its reply.
     */
    public int pollDataAndOrder(int fragmentLimit) {
        return pollOne(Channel.DATA, fragmentLimit) + pollOne(Channel.ORDER, fragmentLimit);
    }

    private int pollOne(Channel channel, int fragmentLimit) {
        if (closed) {
            return 0;
        }
        int ch = channel.ordinal();
        int work = subscriptions[ch].poll(assemblers[ch], fragmentLimit);
        return ipcSubscriptions == null ? work : work + ipcSubscriptions[ch].poll(ipcAssemblers[ch], fragmentLimit);
    }

    private void onFrame(Channel channel, DirectBuffer buffer, int offset, int length, Header header) {
        try {
            decodeFrame(channel, buffer, offset, length);
        } catch (AgentTerminationException e) {
            throw e;
        } catch (RuntimeException e) {
            failedFrames++;
            errors.report(e);
        }
    }

    /** A frame that arrived over UDP: opened (checked, decrypted) first; one that does not open is never decoded. */
    private void onSealedFrame(Channel channel, DirectBuffer buffer, int offset, int length, Header header) {
        try {
            if (!opener.open(channel, buffer, offset, length, header)) {
                return; // counted and told by the opener
            }
            FrameHeaderFlyweight frame = inbound.wrap(buffer, offset);
            opener.hold(); // the handler may poll again before it returns: a decrypted payload keeps its buffer
            try {
                deliver(channel, frame.type() == FrameHeaderFlyweight.SEALED_WHOLE, frame, opener.payloadBuffer(),
                    opener.payloadOffset(), opener.payloadLength());
            } finally {
                opener.release();
            }
        } catch (AgentTerminationException e) {
            throw e;
        } catch (RuntimeException e) {
            failedFrames++;
            errors.report(e);
        }
    }

    private void decodeFrame(Channel channel, DirectBuffer buffer, int offset, int length) {
        FrameHeaderFlyweight frame = inbound.wrap(buffer, offset);
        int headerLength = frame.headerLength(length);
        if (headerLength == FrameHeaderFlyweight.REJECTED) {
            return; // too short, or of a type this transport does not send
        }
        int source = frame.source();
        if (frame.runTag() != context.runTag() || source < 0 || source >= capacity) {
            return; // a frame of another run that shares the stream ids, or garbage: not ours
        }
        deliver(channel, headerLength == WHOLE_HEADER, frame, buffer, offset + headerLength, length - headerLength);
    }

    /** Hands a checked frame's payload to the handler: a whole message at once, a chunk through the reassembly. */
    private void deliver(Channel channel, boolean whole, FrameHeaderFlyweight frame, DirectBuffer buffer, int offset,
                         int length) {
        int source = frame.source();
        if (whole) {
            handler.onMessage(source, channel, buffer, offset, length);
            return;
        }
        long messageId = frame.messageId();
        int total = frame.totalLength();
        DirectBuffer message = chunkAssembler.onChunk(source, channel, messageId, total, frame.chunkOffset(), buffer,
            offset, length);
        if (message != null) {
            try {
                handler.onMessage(source, channel, message, 0, total);
            } finally {
                chunkAssembler.release(source, channel, messageId);
            }
        }
    }

    /**
     * Offers a message once, without waiting. Messages that need chunking are refused here (use {@link #send}).
     *
     * @return {@link #SENT}, {@link #NOT_CONNECTED}, {@link #BACK_PRESSURED} or {@link #CLOSED}
     */
    public int trySend(int destination, Channel channel, DirectBuffer buffer, int offset, int length) {
        int result = trySendUnrung(destination, channel, buffer, offset, length);
        if (result == SENT && destination != nodeId) {
            ring(destination);
        }
        return result;
    }

    /**
     * {@link #trySend} without ringing the destination's doorbell (a message to this node itself still rings it): for
     * a sender that knows a thread of the destination polls for the message, or that rings it with {@link #ring} when
     * it has to.
     */
    public int trySendUnrung(int destination, Channel channel, DirectBuffer buffer, int offset, int length) {
        if (closed) {
            return CLOSED;
        }
        if (destination == nodeId) {
            byte[] copy = new byte[length];
            buffer.getBytes(offset, copy);
            loopback.add(new LocalMessage(channel, copy));
            ring(nodeId);
            return SENT;
        }
        if (!sending.enter()) {
            return CLOSED;
        }
        int result;
        try {
            Publication pub = publication(destination, channel);
            if (length + WHOLE_HEADER + sealLength(destination) > pub.maxMessageLength()) {
                throw new IllegalArgumentException("message of " + length + " bytes needs chunking; use send()");
            }
            result = mapResult(offer(destination, channel, pub, wholeHeader, WHOLE_HEADER, buffer, offset, length));
        } finally {
            sending.exit();
        }
        return result;
    }

    /**
     * The publication to {@code destination}: made at start for the servers, on first use for a client of a standing
     * cluster (an Aeron round trip to the driver, once per client and channel, under a lock; read without one after).
     */
    private Publication publication(int destination, Channel channel) {
        if (destination < size) {
            return publications[destination][channel.ordinal()];
        }
        if (destination >= capacity) {
            throw new CumulusException("node " + nodeId + " has no stream to node " + destination);
        }
        Publication made = (Publication) PUBLICATION.getAcquire(publications[destination], channel.ordinal());
        if (made != null) {
            return made; // a client's publications are made and replaced under the lock, and read without it
        }
        synchronized (publications) {
            Publication pub = publications[destination][channel.ordinal()];
            if (pub == null && clientEndpoints != null) {
                throw new CumulusException("node " + nodeId + " has no endpoint of client " + destination
                    + ": it has not attached here");
            }
            if (pub == null) {
                pub = aeron.addPublication(publishChannel(destination, channel), context.streamId(destination, channel));
                PUBLICATION.setRelease(publications[destination], channel.ordinal(), pub);
            }
            return pub;
        }
    }

    private static final VarHandle PUBLICATION = MethodHandles.arrayElementVarHandle(Publication[].class);

    /**
     * A server learns where client {@code client} receives ({@code endpoint}, {@code host:port}) and its
     * {@code session}, as it attaches over UDP: its stream to the client goes there from now on, sealed for that
     * session (a former holder's stream is closed). Nothing to learn over IPC. Any thread.
     */
    public void clientAttached(int client, String endpoint, byte[] session) {
        if (clientEndpoints == null) {
            return;
        }
        if (client < size || client >= capacity) {
            throw new CumulusException("client id " + client + " is outside " + size + ".." + (capacity - 1));
        }
        int colon = endpoint == null ? -1 : endpoint.lastIndexOf(':');
        if (colon <= 0 || !endpoint.substring(colon + 1).matches("[1-9][0-9]{0,4}") || session == null
            || session.length != 16) {
            throw new CumulusException("client " + client + " attached with no valid endpoint and session ("
                + endpoint + ")");
        }
        int data = Channel.DATA.ordinal();
        synchronized (publications) {
            Publication old = publications[client][data];
            clientEndpoints[client] = endpoint;
            Publication pub = aeron.addPublication(publishChannel(client, Channel.DATA),
                context.streamId(client, Channel.DATA));
            if (sealed != null) {
                SealedPublication[] toClient = new SealedPublication[CHANNELS.length];
                toClient[data] = new SealedPublication(pub, ClientSeals.toClient(clientSecret, client, session), nodeId,
                    client, Channel.DATA);
                sealed[client] = toClient;
            }
            PUBLICATION.setRelease(publications[client], data, pub); // after its seal: a reader sees both
            if (old != null) {
                old.close();
            }
        }
    }

    /** Where this transport receives over UDP, its port resolved ({@code host:port}); null over IPC. */
    public String localEndpoint() {
        if (!context.udp()) {
            return null;
        }
        Subscription data = subscriptions[Channel.DATA.ordinal()];
        long deadline = System.nanoTime() + CONNECT_WAIT_NS;
        String resolved = data.resolvedEndpoint();
        while (resolved == null || resolved.endsWith(":0")) {
            if (System.nanoTime() - deadline > 0) {
                throw new CumulusException("node " + nodeId + ": the media driver did not bind "
                    + context.endpoints().get(nodeId) + " in time");
            }
            conductor.invoke(); // the driver's answers come through the conductor
            Thread.yield();
            resolved = data.resolvedEndpoint();
        }
        return resolved;
    }

    /** What a seal adds to frames for {@code destination}: nothing over IPC. */
    private int sealLength(int destination) {
        return sealed != null && sealed[destination] != null ? FrameHeaderFlyweight.SEAL_LENGTH : 0;
    }

    /** Offers one frame to {@code destination}, sealed when it goes over UDP. */
    private long offer(int destination, Channel channel, Publication pub, DirectBuffer header, int headerLength,
                       DirectBuffer buffer, int offset, int length) {
        SealedPublication[] toPeer;
        if (sealed == null || (toPeer = sealed[destination]) == null) {
            return pub.offer(header, 0, headerLength, buffer, offset, length);
        }
        return toPeer[channel.ordinal()].offer(header, headerLength, buffer, offset, length);
    }

    // ---------------------------------------------------------------- doorbells (see Doorbells)

    /** Wakes {@code node} if it sleeps on its doorbell: after a message for it, or a command for this node. */
    public void ring(int node) {
        Doorbells d = doorbells;
        if (d != null) {
            d.ring(node);
        }
    }

    /** True when this node can sleep on a doorbell (IPC, Linux); else it parks in timed steps. */
    public boolean hasDoorbell() {
        return doorbells != null;
    }

    /**
     * Drops partial chunked messages no chunk has come for within the expiry ({@code ChunkAssembler}), also when no
     * other chunked message starts. Polling thread (the node's timer calls it).
     */
    public void expireIncompleteMessages() {
        chunkAssembler.expire();
    }

    /**
     * This node is about to sleep ({@code nap}: for a bounded time, see {@link #keepDoorbell}): senders will ring. Look
     * for work once more before {@link #sleep}.
     */
    public void announceSleep(boolean nap) {
        doorbells.announce(nodeId, nap ? Doorbells.NAPPING : Doorbells.SLEEPING);
    }

    /** Sleeps until a sender rings or {@code timeoutNs} passed; {@code nap} as announced. */
    public void sleep(boolean nap, long timeoutNs) {
        doorbells.sleep(nodeId, nap ? Doorbells.NAPPING : Doorbells.SLEEPING, timeoutNs);
    }

    /** True when this node's bell is kept ({@link #keepDoorbell}): its next nap may be on it as it is. */
    public boolean doorbellKept() {
        return doorbells.kept(nodeId);
    }

    /** Naps on a kept bell, announcing nothing: until woken, the bell changes, or {@code timeoutNs} passed. */
    public void napKept(long timeoutNs) {
        doorbells.sleep(nodeId, Doorbells.KEPT, timeoutNs);
    }

    /**
     * A thread of this node that stops polling but will poll again soon keeps the bell of its napping main thread
     * (no rings until the nap ends); false when the main thread sleeps unbounded or is awake.
     */
    public boolean keepDoorbell() {
        return doorbells.keep(nodeId);
    }

    /** This node is awake: senders need not ring. */
    public void awake() {
        doorbells.awake(nodeId);
    }

    /** Another thread polls for this sleeping node: senders need not ring until it hands back ({@link #announceSleep}). */
    public void takeOverDoorbell() {
        doorbells.takeOver(nodeId);
    }

    /** A thread of this node waits for a message on {@code cpu} ({@link Cpus#current}). */
    public void waiting(int cpu) {
        doorbells.waiting(nodeId, cpu);
    }

    /** The thread that published {@code cpu} with {@link #waiting} stops waiting. */
    public void notWaiting(int cpu) {
        doorbells.notWaiting(nodeId, cpu);
    }

    /** True when a thread of a node on this host waits for a message and last ran on {@code cpu}. */
    public boolean waiterOn(int cpu) {
        return doorbells.waiterOn(cpu);
    }

    /** Wakes this node's sleeping main thread, whatever its bell says. */
    public void wakeSelf() {
        doorbells.wake(nodeId);
    }

    /**
     * Sends a message of any size up to the configured maximum, waiting out back-pressure and a destination that is
     * still connecting. Any thread except the agent thread (which must not block: use {@link #trySend}).
     *
     * @param maxWaitNs how long to wait for the destination to take any one part of the message (a part it refuses —
     *                  back-pressure, not connected yet — is offered again until then); the clock is read only once an
     *                  offer was refused, so a send that goes through at once costs no clock read
     * @throws NodeFailedException when the destination is known to have failed
     * @throws CumulusException    when a part waited longer than {@code maxWaitNs}, or the transport is closed
     */
    public void send(int destination, Channel channel, DirectBuffer buffer, int offset, int length, long maxWaitNs) {
        sendUnrung(destination, channel, buffer, offset, length, maxWaitNs);
        ring(destination);
    }

    /**
     * {@link #send} without ringing the destination's doorbell: the caller rings it with {@link #ring} when it has to
     * (a sender whose destination answers at once when awake, and who waits for the answer anyway, rings only when
     * the answer is late: the ring's fence waits for the message's cache lines to reach the other core).
     */
    public void sendUnrung(int destination, Channel channel, DirectBuffer buffer, int offset, int length,
                           long maxWaitNs) {
        if (length > context.maxMessageBytes()) {
            throw new CumulusException("message of " + length + " bytes exceeds the limit of "
                + context.maxMessageBytes() + " bytes; send the data in parts");
        }
        if (destination == nodeId) {
            trySend(destination, channel, buffer, offset, length); // it rings this node: a command may wait for it
            return;
        }
        if (!sending.enter()) {
            throw closedError(destination);
        }
        try {
            sendParts(destination, channel, buffer, offset, length, maxWaitNs);
        } finally {
            sending.exit();
        }
    }

    /** {@link #sendUnrung}'s offers, the message whole or in chunks; inside {@link #sending}. */
    private void sendParts(int destination, Channel channel, DirectBuffer buffer, int offset, int length,
                           long maxWaitNs) {
        Publication pub = publication(destination, channel);
        int seal = sealLength(destination);
        if (length + WHOLE_HEADER + seal <= pub.maxMessageLength()) {
            UnsafeBuffer header = wholeHeader;
            offerUntilDone(destination, channel, pub, header, WHOLE_HEADER, buffer, offset, length, maxWaitNs);
            return;
        }
        int chunkPayload = Math.min(MAX_CHUNK_PAYLOAD, pub.maxMessageLength() - CHUNK_HEADER - seal);
        long messageId = nextMessageId.incrementAndGet();
        FrameHeaderFlyweight header = chunkHeaders.get().header(FrameHeaderFlyweight.CHUNK, nodeId, context.runTag());
        for (int done = 0; done < length; done += chunkPayload) {
            int n = Math.min(chunkPayload, length - done);
            header.chunk(messageId, length, done);
            offerUntilDone(destination, channel, pub, header.buffer(), CHUNK_HEADER, buffer, offset + done, n,
                maxWaitNs);
            if (done + n < length) {
                ring(destination); // only the last part is left to the caller: a sleeping node reassembles meanwhile
            }
        }
    }

    private void offerUntilDone(int destination, Channel channel, Publication pub, DirectBuffer header,
                                int headerLength, DirectBuffer buffer, int offset, int length, long maxWaitNs) {
        long refusedSince = 0;
        for (int attempt = 0; ; attempt++) {
            long result = offer(destination, channel, pub, header, headerLength, buffer, offset, length);
            if (result > 0) {
                if (!connectedOnce[destination]) {
                    connectedOnce[destination] = true;
                }
                return;
            }
            if (attempt == 0) {
                refusedSince = System.nanoTime();
                ring(destination); // a sleeping destination must wake to drain its stream (or to connect)
            }
            int code = mapResult(result);
            String failure = failedPeers.get(destination);
            if (failure != null) {
                throw new NodeFailedException(destination, failure);
            }
            if (code == CLOSED && !sending.shut() && nodeId >= size && destination < size) {
                // a client whose Aeron closed itself as the cluster's driver went, before it told us why
                throw new NodeFailedException(destination, driverGone(destination));
            }
            if (code == CLOSED || sending.shut()) {
                throw closedError(destination);
            }
            long waited = System.nanoTime() - refusedSince;
            if (code == NOT_CONNECTED && connectedOnce[destination] && waited > GONE_WAIT_NS) {
                String fate = peerFate.apply(destination);
                if (fate != null) {
                    failedPeers.compareAndSet(destination, null, fate);
                    throw new NodeFailedException(destination, fate);
                }
                throw new CumulusException("node " + nodeId + " could not send to node " + destination
                    + ": it was connected and is not any more (its process ended?)");
            }
            if (waited > maxWaitNs || (code == NOT_CONNECTED && waited > CONNECT_WAIT_NS)) {
                throw new CumulusException("node " + nodeId + " could not send to node " + destination + ": "
                    + (code == NOT_CONNECTED ? "it is not connected" : "it is not draining its stream (back-pressure)")
                    + "; is it alive?");
            }
            if (attempt < 20) {
                Thread.onSpinWait();
            } else if (attempt < 40) {
                Thread.yield();
            } else {
                LockSupport.parkNanos(20_000);
            }
        }
    }

    private static String driverGone(int server) {
        return "server " + server + " cannot be reached: the standing cluster's media driver is gone (the cluster was "
            + "stopped, or its keeper died)";
    }

    private CumulusException closedError(int destination) {
        return new CumulusException("node " + nodeId + " cannot send to node " + destination
            + ": this node has left the cluster (Cluster.close() was called, or the node is ending) and its "
            + "transport is closed; make calls before closing the cluster");
    }

    /** Threads inside a send right now (tests). */
    int sendersInside() {
        return sending.inside();
    }

    private static int mapResult(long result) {
        if (result > 0) {
            return SENT;
        }
        if (result == Publication.NOT_CONNECTED) {
            return NOT_CONNECTED;
        }
        if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION) {
            return BACK_PRESSURED;
        }
        return CLOSED;
    }

    /** Whether a publication to {@code peer} has a subscriber on the other end. */
    public boolean isConnected(int peer, Channel channel) {
        return peer == nodeId || publication(peer, channel).isConnected();
    }

    /**
     * Makes senders blocked on {@code peer} give up with a {@link NodeFailedException} carrying {@code reason}, and
     * drops its half-received messages. Agent thread.
     */
    public void markFailed(int peer, String reason) {
        failedPeers.compareAndSet(peer, null, reason);
        chunkAssembler.forget(peer);
    }

    /** Frames dropped because their handling threw (each reported to the error log). */
    public long failedFrames() {
        return failedFrames;
    }

    /**
     * Frames that arrived over UDP without a valid seal (not sealed, another run's, a bad tag, a replay): dropped
     * without being decoded. Any thread.
     */
    public long rejectedFrames() {
        return rejections.count();
    }

    /** Chunked messages dropped by the reassembly (a broken bound, out of sequence, expired). Any thread. */
    public long droppedChunkedMessages() {
        return chunkAssembler.droppedCount();
    }

    /** Bytes held for chunked messages in reassembly. Polling thread. */
    long chunkBytesHeld() {
        return chunkAssembler.bytesHeld();
    }

    /** The transport's error log. */
    TransportErrors errors() {
        return errors;
    }

    /** The largest message {@link #send} accepts. */
    public int maxMessageBytes() {
        return context.maxMessageBytes();
    }

    /** The largest payload one {@link #trySend} accepts on {@code channel}. */
    public int maxTrySendLength(Channel channel) {
        int peer = nodeId == 0 ? Math.min(1, size - 1) : 0;
        Publication p = publications[peer][channel.ordinal()];
        return p == null ? context.maxMessageBytes() : p.maxMessageLength() - WHOLE_HEADER - sealLength(peer);
    }

    /**
     * Sends nothing more: a thread waiting to offer a message gives up at its next retry, as it does once the transport
     * closes. The node's leave calls it before it waits for its duty cycle's threads, one of which may be waiting to
     * reply to a peer whose process exited while this one was leaving (a peer not connected is waited for much longer
     * than a leave may take).
     */
    public void stopSending() {
        sending.shutNow();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // a thread still sending (a call thread the node's close interrupted, sending its error answer) must be out
        // of Aeron's buffers before they are unmapped; one that waits out back-pressure gives up at its next retry
        if (!sending.close()) {
            errorOutput.accept("cumulus: node " + nodeId + ": a send still runs " + SendGate.CLOSE_WAIT_NS / 1_000_000
                + " ms after the transport began to close; closing anyway");
        }
        errors.flush();
        try {
            aeron.close();
        } catch (AeronException e) {
            // closing after the driver went away: nothing more to release
        }
    }
}
