package dev.cumulus.internal.service;

import dev.cumulus.AccessDeniedException;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.rpc.AccessRule;
import dev.cumulus.internal.rpc.ExportTable;
import dev.cumulus.internal.rpc.MigrationService;
import dev.cumulus.internal.rpc.NameDirectory;
import dev.cumulus.internal.rpc.RemoteFactory;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The door every call from a standing cluster's client passes on a server, before anything of it is decoded: the
 * client must have attached ({@link ClientAdmission}); it may call only the system services meant for clients, and a
 * user object only as the object's {@link AccessRule} grants the principal it attached as; and it may have at most
 * {@link ClientAdmission#MAX_CALLS_PER_CLIENT} calls outstanding here. Calls between the cluster's nodes never come here.
 * A refusal is logged (the first 100, then every 1000th: a client that keeps trying cannot flood the log).
 *
 * <p>The access decision is taken once per client, object and method, not per call: each client's last call let
 * through is remembered with the identity of what it was decided on — the principal the client attached as (each
 * attach makes a new one, and leaving clears it), the object's entry in the export table (a new entry when the object
 * moves or goes) and the method — and a call that matches it in all three passes without the grant being read again.
 * So every call is still checked against its caller's authenticated identity, and a client calling one object in a
 * loop costs the server a comparison instead of the rule's evaluation. Polling thread.
 */
final class ClientCalls {
    private final int self;
    private final ExportTable exports;
    private final ClientAdmission admission;
    private final AtomicLong refused = new AtomicLong();
    /** Each client's last call let through, by client id. */
    private final AtomicReferenceArray<Admitted> lastAdmitted;

    /** A call let through: by the client that attached as {@code principal}, to {@code target}'s {@code methodId}. */
    private record Admitted(String principal, ExportTable.Exported target, int methodId) {
    }

    /** @param capacity the servers' and clients' ids: clients are below it */
    ClientCalls(int self, ExportTable exports, ClientAdmission admission, int capacity) {
        this.self = self;
        this.exports = exports;
        this.admission = admission;
        this.lastAdmitted = new AtomicReferenceArray<>(capacity);
    }

    /**
     * Why the call of method {@code methodId} of {@code objectId} from client {@code client} may not run here, or
     * {@code null} when it may; then it counts among the client's outstanding calls ({@link #counts}) until
     * {@link ClientAdmission#endCall}.
     */
    CumulusException refusal(int client, long objectId, int methodId) {
        String principal = admission.principal(client);
        if (principal == null) {
            return objectId == ClientGate.OBJECT_ID ? null : new AccessDeniedException("server " + self + " refuses "
                + "the call of client " + client + ": it has not attached with a credential of this cluster (use "
                + "Cluster.connect or cumulus run --attach with a credential from 'cumulus cluster grant')");
        }
        ExportTable.Exported target = exports.get(objectId);
        Admitted last = lastAdmitted.getPlain(client); // written by the polling thread only
        if (last == null || last.principal() != principal || last.target() != target || last.methodId() != methodId
            || target == null) {
            String why = denial(client, principal, objectId, target, methodId);
            if (why != null) {
                log(why);
                return new AccessDeniedException(why);
            }
            if (target != null) {
                lastAdmitted.setPlain(client, new Admitted(principal, target, methodId));
            }
        }
        if (counts(objectId) && !admission.startCall(client)) {
            String flood = "client " + principal + " (id " + client + ") has " + ClientAdmission.MAX_CALLS_PER_CLIENT
                + " calls outstanding on server " + self + ", the most one client may have on one server; wait for "
                + "results (AsyncTicket.getResult) before starting more calls";
            log(flood);
            return new CumulusException(flood);
        }
        return null;
    }

    /**
     * Whether a call of {@code objectId} counts among its client's outstanding calls: every call but attaching and
     * leaving (a lookup may wait a while, and a flood of them would hold threads as any call does). A client of
     * Cumulus counts the same calls in its own window ({@link ClientNode}), so it never has more outstanding.
     */
    static boolean counts(long objectId) {
        return objectId != ClientGate.OBJECT_ID;
    }

    /** The system services a client may call, and which of their methods: the rest are the cluster's own. */
    private static boolean forClients(long objectId, String method) {
        return objectId == ClientGate.OBJECT_ID
            || objectId == RemoteFactory.OBJECT_ID
            || objectId == NameDirectory.OBJECT_ID && !method.equals("moved")
            || objectId == MigrationService.OBJECT_ID && (method.equals("migrate") || method.equals("followCalls"));
    }

    /**
     * Why client {@code principal} may not call method {@code methodId} of object {@code objectId}, or {@code null}.
     * An unknown object or method is let through: the engine answers it as a bad call. The admin reaches everything.
     */
    private String denial(int client, String principal, long objectId, ExportTable.Exported target, int methodId) {
        int index = target == null ? -1 : target.methods().indexOf(methodId);
        if (index < 0 || AccessRule.ADMIN.equals(principal)) {
            return null;
        }
        String method = target.methods().method(index).getName();
        if (objectId < ExportTable.FIRST_USER_ID) {
            return forClients(objectId, method) ? null : "client " + principal + " (id " + client + ") may not call "
                + target.name() + "." + method + "() on server " + self + ": that system service is the cluster's own";
        }
        AccessRule rule = target.rule();
        if (rule == null || rule.permitsCall(principal, method)) {
            return null;
        }
        return "client " + principal + " (id " + client + ") may not call " + target.name() + "." + method
            + "() on server " + self + ": the object belongs to client " + rule.owner()
            + (rule.permitsLookup(principal) ? ", whose grant does not cover " + method + "()"
            : ", who granted " + principal + " no access")
            + " (the owner grants access with Access.clients(...), Access.anyone() or Access.methods(...))";
    }

    private void log(String why) {
        long n = refused.incrementAndGet();
        if (n <= 100 || n % 1000 == 0) {
            System.err.println("cumulus: server " + self + " refused a call: " + why
                + (n > 100 ? " (" + n + " refused calls so far; only every 1000th is logged now)" : ""));
        }
    }
}
