package dev.cumulus.internal.rpc;

import dev.cumulus.Access;

import java.util.Arrays;

/**
 * Who may reach an object a client of a standing cluster owns, as the server that serves it and the name service that
 * binds its name keep it (and as it travels with the object when it moves): its owner (the principal of the client
 * that made it) and the owner's {@link Access} grant. Objects of the cluster itself (an SPMD run's, a server's own)
 * have no rule: every admitted client reaches them. Immutable (its arrays are never changed once made).
 *
 * @param owner      the owning client's principal (the name its credential was granted under)
 * @param anyone     every client is granted
 * @param clients    the clients granted by name
 * @param allMethods the grant covers every method; else only {@code methods}
 * @param methods    the methods granted when not {@code allMethods}
 */
public record AccessRule(String owner, boolean anyone, String[] clients, boolean allMethods, String[] methods) {
    /** The principal of a standing cluster's admin, who reaches every object. */
    public static final String ADMIN = "admin";

    /** The rule for an object {@code owner} made, granting {@code access}. */
    public static AccessRule of(String owner, Access access) {
        return new AccessRule(owner, access.isAnyone(), access.clientNames().toArray(String[]::new),
            access.methodNames().isEmpty(), access.methodNames().toArray(String[]::new));
    }

    /** Whether {@code principal} may call {@code method}: the owner, the admin, or a client the grant covers. */
    public boolean permitsCall(String principal, String method) {
        return permitsLookup(principal)
            && (owner.equals(principal) || ADMIN.equals(principal) || allMethods || contains(methods, method));
    }

    /** Whether {@code principal} may look the object up: the owner, the admin, or a client the grant names. */
    public boolean permitsLookup(String principal) {
        return owner.equals(principal) || ADMIN.equals(principal) || anyone || contains(clients, principal);
    }

    /** The same grant owned by {@code principal} (the owner a server puts in, never the one a client claims). */
    AccessRule ownedBy(String principal) {
        return new AccessRule(principal, anyone, clients, allMethods, methods);
    }

    private static boolean contains(String[] names, String name) {
        for (String n : names) {
            if (n.equals(name)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof AccessRule r && owner.equals(r.owner) && anyone == r.anyone && allMethods == r.allMethods
            && Arrays.equals(clients, r.clients) && Arrays.equals(methods, r.methods);
    }

    @Override
    public int hashCode() {
        return owner.hashCode() * 31 + Arrays.hashCode(clients);
    }

    @Override
    public String toString() {
        return "owned by " + owner + (anyone ? ", open to every client" : clients.length == 0 ? ""
            : ", open to " + String.join(", ", clients)) + (allMethods ? "" : " (methods " + String.join(", ", methods)
            + ")");
    }
}
