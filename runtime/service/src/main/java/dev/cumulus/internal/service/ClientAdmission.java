package dev.cumulus.internal.service;

import dev.cumulus.AccessDeniedException;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.rpc.AccessRule;
import dev.cumulus.internal.rpc.RpcEngine;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Which clients a standing cluster's server admits, and as whom. Every client holds a credential the admin granted
 * under a principal name ({@code cumulus cluster grant NAME CLIENT}): a key derived from the cluster's admin
 * credential and that name ({@link #clientKey}), so a server, which holds the admin credential, checks any client
 * without a list of grants; the admin's own key is the admin credential ({@link AccessRule#ADMIN}). A client proves
 * it holds its key with an HMAC-SHA256 of its id and principal under it ({@link #proof}), so the key itself never
 * travels. From then on every call from that client's transport id is made by that principal ({@link #principal}).
 * Any thread.
 */
public final class ClientAdmission implements ClientGate {
    private static final byte[] LABEL = "cumulus client attach v2".getBytes(StandardCharsets.UTF_8);
    private static final byte[] KEY_LABEL = "cumulus client credential v1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ADMIN_LABEL = "cumulus cluster admin v1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] SESSION_LABEL = "cumulus client session v1".getBytes(StandardCharsets.UTF_8);
    /** The length of a client's session nonce and of the session it makes. */
    public static final int SESSION_BYTES = 16;
    /** What a principal's name may be: what {@code cumulus cluster grant} accepts. */
    public static final String PRINCIPAL_PATTERN = "[A-Za-z0-9][A-Za-z0-9._-]{0,63}";

    private final byte[] credential;
    private final int firstClient;
    private final int capacity;
    /** The principal of each attached client, by its id less {@link #firstClient}; null when none is attached. */
    private final AtomicReferenceArray<String> principals;
    /** How many calls of each client's (by id less {@link #firstClient}) wait or run here. */
    private final AtomicIntegerArray outstanding;
    /** The process of each attached client. */
    private final Map<Integer, Long> pids = new ConcurrentHashMap<>();
    /** When each client this server cannot watch the process of (on another host) was last heard, by id. */
    private final Map<Integer, Long> leases = new ConcurrentHashMap<>();
    private final AtomicBoolean leaseWatch = new AtomicBoolean();
    /** What each client made here. */
    private final Map<Integer, Set<Owned>> owned = new ConcurrentHashMap<>();
    /** The names of each client's objects that moved here from another server: its profile has their calls here. */
    private final Map<Integer, Set<String>> cameHere = new ConcurrentHashMap<>();
    private volatile BiConsumer<Integer, List<Owned>> onGone = (client, objects) -> { };
    /** Where a client that attached over UDP is routed (the server's transport learns its endpoint and session). */
    private volatile Route route = (client, endpoint, session) -> { };

    /** Where the frames to a client that attached over UDP go: its endpoint and its session ({@link #session}). */
    @FunctionalInterface
    public interface Route {
        void attached(int client, String endpoint, byte[] session);
    }
    private final ClientProfiles profiles = new ClientProfiles();

    /** An object a client made on this server, and its name in the cluster. */
    public record Owned(long objectId, String name) {
    }

    /** How often a client attached over UDP tells each server it is there ({@link ClientGate#alive}). */
    public static final long LEASE_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    /** How long a server waits to hear from a client on another host before it removes it. */
    public static final long LEASE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    /**
     * The most calls one client may have waiting or running on one server at once ({@link ClientCalls#counts}): more
     * are refused with an error, so one client cannot take a server's threads and memory from the others. Cumulus's
     * own client runtime never sends more: its calls past it wait in their start until answers free room
     * ({@link ClientNode}), so only a client that does not play by the rules is refused. Fixed, so every client knows
     * it.
     */
    public static final int MAX_CALLS_PER_CLIENT = 1024;

    /** @param credential the cluster's credential; clients have ids {@code firstClient..capacity-1} */
    public ClientAdmission(byte[] credential, int firstClient, int capacity) {
        this.outstanding = new AtomicIntegerArray(Math.max(0, capacity - firstClient));
        this.credential = credential.clone();
        this.firstClient = firstClient;
        this.capacity = capacity;
        this.principals = new AtomicReferenceArray<>(Math.max(0, capacity - firstClient));
    }

    /** The key of the client granted as {@code principal} by the cluster whose admin credential is {@code admin}. */
    public static byte[] clientKey(byte[] admin, String principal) {
        if (AccessRule.ADMIN.equals(principal)) {
            return admin.clone();
        }
        return hmac(admin, KEY_LABEL, principal.getBytes(StandardCharsets.UTF_8));
    }

    /** What client {@code client}, granted as {@code principal}, sends to prove it holds its {@code key}. */
    public static byte[] proof(byte[] key, int client, String principal) {
        byte[] name = principal.getBytes(StandardCharsets.UTF_8);
        return hmac(key, LABEL, ByteBuffer.allocate(Integer.BYTES + name.length).putInt(client).put(name).array());
    }

    /**
     * What client {@code client} sends with each {@link ClusterAdmin} call to prove it holds the admin credential
     * {@code adminKey} (the key of {@link AccessRule#ADMIN}, which is the cluster's admin credential itself).
     */
    public static byte[] adminProof(byte[] adminKey, int client) {
        return hmac(adminKey, ADMIN_LABEL, ByteBuffer.allocate(Integer.BYTES).putInt(client).array());
    }

    /**
     * Whether {@code client} is the cluster's admin and {@code proof} its admin proof: it attached as
     * {@link AccessRule#ADMIN} (proving the admin credential) and proves it again for this id.
     */
    boolean provesAdmin(int client, byte[] proof) {
        return AccessRule.ADMIN.equals(principal(client)) && proof != null
            && MessageDigest.isEqual(proof, adminProof(clientKey(credential, AccessRule.ADMIN), client));
    }

    /** The attached clients and their processes. */
    Map<Integer, Long> attached() {
        return Map.copyOf(pids);
    }

    private static byte[] hmac(byte[] key, byte[] label, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update(label);
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new CumulusException("HMAC-SHA256 is not available in this JDK: " + e.getMessage(), e);
        }
    }

    /**
     * The session of a client that receives over UDP: what seals the servers' frames to it (with the cluster's client
     * secret), from the {@code nonce} it chose for this attach and its {@code key}, so a frame meant for an earlier
     * client of its id, or sealed without its credential, does not open there.
     */
    public static byte[] session(byte[] key, byte[] nonce) {
        return java.util.Arrays.copyOf(hmac(key, SESSION_LABEL, nonce), SESSION_BYTES);
    }

    /**
     * This host's identity as far as process ids go: its boot, and this process's pid and network namespaces (the
     * test hosts share a kernel but not a network); "" where /proc does not tell.
     */
    public static String hostIdentity() {
        return HOST;
    }

    private static final String HOST = readHostIdentity();

    private static String readHostIdentity() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/sys/kernel/random/boot_id")).strip()
                + " " + java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/ns/pid"))
                + " " + java.nio.file.Files.readSymbolicLink(java.nio.file.Path.of("/proc/self/ns/net"));
        } catch (java.io.IOException | UnsupportedOperationException e) {
            return "";
        }
    }

    /** Routes the clients that attach over UDP (the server's transport). */
    public void route(Route route) {
        this.route = route;
    }

    /**
     * Told of each client that left (on the thread of its detach) or whose process ended (on a thread of its own),
     * with the objects it made here, which it is to stop serving.
     */
    public void onClientGone(BiConsumer<Integer, List<Owned>> action) {
        this.onGone = action;
    }

    @Override
    public void attach(int client, long pid, String principal, byte[] proof) {
        admit(client, pid, principal, proof, true);
    }

    @Override
    public void attachRemote(int client, long pid, String principal, byte[] proof, String endpoint, byte[] nonce,
                             String host) {
        if (nonce == null || nonce.length != SESSION_BYTES) {
            throw new AccessDeniedException("client " + client + " was refused: its session nonce is not "
                + SESSION_BYTES + " bytes");
        }
        String here = hostIdentity();
        admit(client, pid, principal, proof, !here.isEmpty() && here.equals(host));
        route.attached(client, endpoint, session(clientKey(credential, principal), nonce));
    }

    /** Admits {@code client} as {@code principal} when {@code proof} checks; watches {@code pid} when asked. */
    private void admit(int client, long pid, String principal, byte[] proof, boolean watchPid) {
        if (client < firstClient || client >= capacity) {
            throw new CumulusException("client id " + client + " is outside " + firstClient + ".." + (capacity - 1));
        }
        if (principal == null || !principal.matches(PRINCIPAL_PATTERN)) {
            throw new AccessDeniedException("client " + client + " was refused: '" + principal + "' is no client name "
                + "a credential is granted under");
        }
        Integer caller = RpcEngine.systemCaller();
        if (caller != null && caller != client) {
            throw new AccessDeniedException("client " + caller + " may not attach as client " + client);
        }
        if (proof == null || !MessageDigest.isEqual(proof, proof(clientKey(credential, principal), client, principal))) {
            System.err.println("cumulus: refused client " + client + " claiming to be '" + principal + "': its "
                + "credential is not valid for this cluster");
            throw new AccessDeniedException("client " + principal + " (id " + client + ") was refused: its credential "
                + "is not valid for this cluster (granted by another cluster, or before the cluster was last started); "
                + "ask the cluster's admin for a new one: 'cumulus cluster grant NAME " + principal + "'");
        }
        gone(client, false); // a slot taken again: whatever its former holder left goes first
        pids.put(client, pid);
        principals.set(client - firstClient, principal);
        if (pid == ProcessHandle.current().pid()) {
            return; // a client in this very process (tests): it detaches
        }
        if (!watchPid) { // on another host: it detaches, or stops telling it is there
            leases.put(client, System.nanoTime());
            watchLeases();
            return;
        }
        ProcessHandle.of(pid).ifPresentOrElse(
            p -> p.onExit().thenRun(() -> {
                if (pids.remove(client, pid)) {
                    gone(client, true);
                }
            }),
            () -> gone(client, true));
    }

    @Override
    public void alive(int client) {
        checkSelf(client, "speak for");
        leases.computeIfPresent(client, (c, since) -> System.nanoTime());
    }

    /**
     * Removes the clients on other hosts not heard from for {@link #LEASE_TIMEOUT_NS} at {@code nowNs}, as if they had
     * detached (what they made here goes); returns how many.
     */
    int expireLeases(long nowNs) {
        int expired = 0;
        for (Map.Entry<Integer, Long> lease : leases.entrySet()) {
            int client = lease.getKey();
            if (nowNs - lease.getValue() > LEASE_TIMEOUT_NS && leases.remove(client, lease.getValue())) {
                System.err.println("cumulus: client " + principal(client) + " (id " + client + ") was not heard from "
                    + "for " + TimeUnit.NANOSECONDS.toSeconds(LEASE_TIMEOUT_NS) + " s: its objects here are removed");
                pids.remove(client);
                gone(client, true);
                expired++;
            }
        }
        return expired;
    }

    /** Starts, once, the thread that looks at the leases every {@link #LEASE_INTERVAL_NS}. */
    private void watchLeases() {
        if (leaseWatch.compareAndSet(false, true)) {
            Thread.ofPlatform().daemon().name("cumulus-client-leases").start(() -> {
                while (true) {
                    LockSupport.parkNanos(LEASE_INTERVAL_NS); // a periodic look; its pace is the lease's
                    expireLeases(System.nanoTime());
                }
            });
        }
    }

    @Override
    public void detach(int client) {
        Integer caller = RpcEngine.systemCaller();
        if (caller != null && caller != client && !AccessRule.ADMIN.equals(principal(caller))) {
            throw new AccessDeniedException("client " + principal(caller) + " (id " + caller + ") may not detach client "
                + client + ": a client detaches only itself (the admin may end any)");
        }
        pids.remove(client);
        gone(client, false);
    }

    @Override
    public void profile(int client) {
        checkSelf(client, "profile");
        profiles.start(client);
    }

    @Override
    public byte[] profiled(int client, int offset) {
        checkSelf(client, "read the profile of");
        return profiles.chunk(client, offset, () -> {
            Set<String> names = new HashSet<>(cameHere.getOrDefault(client, Set.of()));
            owned.getOrDefault(client, Set.of()).forEach(o -> names.add(o.name()));
            return names;
        });
    }

    /** A client asks only for itself: its calls come from its own transport id. */
    private void checkSelf(int client, String what) {
        Integer caller = RpcEngine.systemCaller();
        if (caller != null && caller != client) {
            throw new AccessDeniedException("client " + principal(caller) + " (id " + caller + ") may not " + what
                + " client " + client + ": a client acts only for itself");
        }
        if (!admitted(client)) {
            throw new AccessDeniedException("client " + client + " has not attached here");
        }
    }

    /** Notes that the object {@code name} of {@code client} moved here (its calls here are in its profile). */
    void cameHere(int client, String name) {
        cameHere.computeIfAbsent(client, c -> ConcurrentHashMap.newKeySet()).add(name);
    }

    /** Notes that {@code client} made {@code objectId}, named {@code name}, here. */
    void own(int client, long objectId, String name) {
        owned.computeIfAbsent(client, c -> ConcurrentHashMap.newKeySet()).add(new Owned(objectId, name));
    }

    /** Forgets {@code client} and removes what it made: here, or on a thread of its own when {@code async}. */
    private void gone(int client, boolean async) {
        leases.remove(client);
        profiles.end(client);
        boolean inRange = client >= firstClient && client < capacity;
        boolean was = inRange && principals.getAndSet(client - firstClient, null) != null;
        if (inRange) {
            outstanding.set(client - firstClient, 0); // its calls still running end without counting for a new holder
        }
        Set<Owned> objects = owned.remove(client);
        cameHere.remove(client);
        if (was || objects != null) {
            List<Owned> list = objects == null ? List.of() : List.copyOf(objects);
            if (async) {
                Thread.ofVirtual().name("cumulus-client-" + client + "-gone").start(() -> onGone.accept(client, list));
            } else {
                onGone.accept(client, list);
            }
        }
    }

    /** Whether {@code client} attached and has not left. */
    boolean admitted(int client) {
        return principal(client) != null;
    }

    /**
     * Counts a call of {@code client}'s that is to wait or run here; false, counting nothing, when it has
     * {@link #MAX_CALLS_PER_CLIENT} already (polling thread). Each counted call is ended with {@link #endCall}.
     */
    boolean startCall(int client) {
        int i = client - firstClient;
        int n;
        do {
            n = outstanding.get(i);
            if (n >= MAX_CALLS_PER_CLIENT) {
                return false;
            }
        } while (!outstanding.compareAndSet(i, n, n + 1));
        return true;
    }

    /** A call {@link #startCall} counted is about to be answered, or left this server. */
    void endCall(int client) {
        outstanding.updateAndGet(client - firstClient, n -> Math.max(0, n - 1));
    }

    /** The principal {@code client} attached as, or {@code null} when it is not attached. */
    public String principal(int client) {
        return client < firstClient || client >= capacity ? null : principals.get(client - firstClient);
    }
}
