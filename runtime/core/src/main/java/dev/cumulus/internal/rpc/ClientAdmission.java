package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which clients a standing cluster's server admits: a client proves it holds the cluster's credential with an
 * HMAC-SHA256 of its id under it ({@link #proof}), so the credential itself never travels. Any thread.
 */
public final class ClientAdmission implements ClientGate {
    private static final byte[] LABEL = "cumulus client attach v1".getBytes(StandardCharsets.UTF_8);
    private static final byte[] ADMIN_LABEL = "cumulus cluster admin v1".getBytes(StandardCharsets.UTF_8);

    private final byte[] credential;
    private final int firstClient;
    private final int capacity;
    private final Set<Integer> admitted = ConcurrentHashMap.newKeySet();
    /** The process of each attached client. */
    private final Map<Integer, Long> pids = new ConcurrentHashMap<>();
    /** What each client made here. */
    private final Map<Integer, Set<Owned>> owned = new ConcurrentHashMap<>();
    private volatile BiConsumer<Integer, List<Owned>> onGone = (client, objects) -> { };

    /** An object a client made on this server, and its name in the cluster. */
    public record Owned(long objectId, String name) {
    }

    /** @param credential the cluster's credential; clients have ids {@code firstClient..capacity-1} */
    public ClientAdmission(byte[] credential, int firstClient, int capacity) {
        this.credential = credential.clone();
        this.firstClient = firstClient;
        this.capacity = capacity;
    }

    /** What client {@code client} sends to prove it holds {@code credential}. */
    public static byte[] proof(byte[] credential, int client) {
        return proof(credential, LABEL, client);
    }

    /** What client {@code client} sends with each {@link ClusterAdmin} call to prove it holds the admin credential. */
    public static byte[] adminProof(byte[] adminCredential, int client) {
        return proof(adminCredential, ADMIN_LABEL, client);
    }

    /** Whether {@code proof} is the admin proof of the attached client {@code client}. */
    boolean provesAdmin(int client, byte[] proof) {
        return admitted(client) && proof != null && MessageDigest.isEqual(proof, adminProof(credential, client));
    }

    /** The attached clients and their processes. */
    Map<Integer, Long> attached() {
        return Map.copyOf(pids);
    }

    private static byte[] proof(byte[] credential, byte[] label, int client) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(credential, "HmacSHA256"));
            mac.update(label);
            return mac.doFinal(ByteBuffer.allocate(Integer.BYTES).putInt(client).array());
        } catch (GeneralSecurityException e) {
            throw new CumulusException("HMAC-SHA256 is not available in this JDK: " + e.getMessage(), e);
        }
    }

    /**
     * Told of each client that left (on the thread of its detach) or whose process ended (on a thread of its own),
     * with the objects it made here, which it is to stop serving.
     */
    public void onClientGone(BiConsumer<Integer, List<Owned>> action) {
        this.onGone = action;
    }

    @Override
    public void attach(int client, long pid, byte[] proof) {
        if (client < firstClient || client >= capacity) {
            throw new CumulusException("client id " + client + " is outside " + firstClient + ".." + (capacity - 1));
        }
        if (proof == null || !MessageDigest.isEqual(proof, proof(credential, client))) {
            throw new CumulusException("client " + client + " was refused: its credential is not this cluster's "
                + "(was the cluster restarted? connect again)");
        }
        gone(client, false); // a slot taken again: whatever its former holder left goes first
        pids.put(client, pid);
        admitted.add(client);
        if (pid == ProcessHandle.current().pid()) {
            return; // a client in this very process (tests): it detaches, it cannot die apart
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
    public void detach(int client) {
        pids.remove(client);
        gone(client, false);
    }

    /** Notes that {@code client} made {@code objectId}, named {@code name}, here. */
    void own(int client, long objectId, String name) {
        owned.computeIfAbsent(client, c -> ConcurrentHashMap.newKeySet()).add(new Owned(objectId, name));
    }

    /** Forgets {@code client} and removes what it made: here, or on a thread of its own when {@code async}. */
    private void gone(int client, boolean async) {
        boolean was = admitted.remove(client);
        Set<Owned> objects = owned.remove(client);
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
        return admitted.contains(client);
    }
}
