package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which clients a standing cluster's server admits: a client proves it holds the cluster's credential with an
 * HMAC-SHA256 of its id under it ({@link #proof}), so the credential itself never travels. Any thread.
 */
public final class ClientAdmission implements ClientGate {
    private static final byte[] LABEL = "cumulus client attach v1".getBytes(StandardCharsets.UTF_8);

    private final byte[] credential;
    private final int firstClient;
    private final int capacity;
    private final Set<Integer> admitted = ConcurrentHashMap.newKeySet();

    /** @param credential the cluster's credential; clients have ids {@code firstClient..capacity-1} */
    public ClientAdmission(byte[] credential, int firstClient, int capacity) {
        this.credential = credential.clone();
        this.firstClient = firstClient;
        this.capacity = capacity;
    }

    /** What client {@code client} sends to prove it holds {@code credential}. */
    public static byte[] proof(byte[] credential, int client) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(credential, "HmacSHA256"));
            mac.update(LABEL);
            return mac.doFinal(ByteBuffer.allocate(Integer.BYTES).putInt(client).array());
        } catch (GeneralSecurityException e) {
            throw new CumulusException("HMAC-SHA256 is not available in this JDK: " + e.getMessage(), e);
        }
    }

    @Override
    public void attach(int client, byte[] proof) {
        if (client < firstClient || client >= capacity) {
            throw new CumulusException("client id " + client + " is outside " + firstClient + ".." + (capacity - 1));
        }
        if (proof == null || !MessageDigest.isEqual(proof, proof(credential, client))) {
            throw new CumulusException("client " + client + " was refused: its credential is not this cluster's "
                + "(was the cluster restarted? connect again)");
        }
        admitted.add(client);
    }

    @Override
    public void detach(int client) {
        admitted.remove(client);
    }

    /** Whether {@code client} attached and has not left. */
    boolean admitted(int client) {
        return admitted.contains(client);
    }
}
