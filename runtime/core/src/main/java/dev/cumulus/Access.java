package dev.cumulus;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

/**
 * Who besides its owner may reach a remote object of a standing cluster (Babylon §4.1's access restrictions). An
 * object belongs to the client that made it ({@code remoteNew}) or exported it; by default ({@link #owner()}) no other
 * client can look it up or call it. A grant names the other clients ({@link #clients}) or lets every client in
 * ({@link #anyone()}), and may be narrowed to some methods ({@link #only}, or {@link #methods} for a read-only grant to
 * every client). The owner and the cluster's admin always have full access.
 *
 * <pre>{@code
 * cluster.export(board, Board.class, "board", Access.clients("alice", "bob"));
 * cluster.remoteNew(BoardImpl.class, Board.class, "scores", 0, Access.methods("top", "size"));
 * }</pre>
 *
 * <p>Grants are checked on the object's server against the identity the server admitted the caller with (its
 * credential), never a claim in the call. Inside an SPMD run ({@code cumulus run} without {@code --attach}) there are
 * no clients and every node reaches every object, so a grant changes nothing there. Immutable.
 */
public final class Access {
    private static final Access OWNER = new Access(false, Set.of(), null);
    private static final Access ANYONE = new Access(true, Set.of(), null);

    private final boolean anyone;
    private final Set<String> clients;
    /** The methods granted, or {@code null} for all. */
    private final Set<String> methods;

    private Access(boolean anyone, Set<String> clients, Set<String> methods) {
        this.anyone = anyone;
        this.clients = clients;
        this.methods = methods;
    }

    /** Only the owner (and the admin): the default of {@code export} and {@code remoteNew}. */
    public static Access owner() {
        return OWNER;
    }

    /** Every client the cluster admitted may look the object up and call every method. */
    public static Access anyone() {
        return ANYONE;
    }

    /**
     * The named clients (the names their credentials were granted under, {@code cumulus cluster grant NAME CLIENT})
     * may look the object up and call every method.
     *
     * @throws IllegalArgumentException when no name is given, or a name is blank
     */
    public static Access clients(String... names) {
        return new Access(false, names("client", names), null);
    }

    /**
     * Every client may look the object up and call only the named methods (a read-only grant, when those are the
     * methods that only read).
     *
     * @throws IllegalArgumentException when no name is given, or a name is blank
     */
    public static Access methods(String... names) {
        return new Access(true, Set.of(), names("method", names));
    }

    /**
     * This grant narrowed to the named methods: {@code Access.clients("alice").only("get")} lets alice call
     * {@code get} and nothing else.
     *
     * @throws IllegalArgumentException when no name is given, or a name is blank
     */
    public Access only(String... methodNames) {
        return new Access(anyone, clients, names("method", methodNames));
    }

    private static Set<String> names(String what, String... names) {
        if (names == null || names.length == 0) {
            throw new IllegalArgumentException("name at least one " + what);
        }
        Set<String> set = new LinkedHashSet<>();
        for (String n : names) {
            if (n == null || n.isBlank()) {
                throw new IllegalArgumentException("a " + what + " name may not be blank: " + Arrays.toString(names));
            }
            set.add(n);
        }
        return Collections.unmodifiableSet(set);
    }

    /** Whether every client is granted (perhaps only some methods). */
    public boolean isAnyone() {
        return anyone;
    }

    /** The clients granted by name (empty for {@link #owner()} and {@link #anyone()}). */
    public Set<String> clientNames() {
        return clients;
    }

    /** The methods granted, or empty when the grant covers every method. */
    public Set<String> methodNames() {
        return methods == null ? Set.of() : methods;
    }

    /** Whether this grant lets client {@code client}, not the owner, call {@code method}. */
    public boolean permits(String client, String method) {
        return (anyone || clients.contains(client)) && (methods == null || methods.contains(method));
    }

    /** Whether this grant lets client {@code client}, not the owner, look the object up (any method granted). */
    public boolean permitsLookup(String client) {
        return anyone || clients.contains(client);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Access a && anyone == a.anyone && clients.equals(a.clients)
            && Objects.equals(methods, a.methods);
    }

    @Override
    public int hashCode() {
        return Objects.hash(anyone, clients, methods);
    }

    @Override
    public String toString() {
        String who = anyone ? "anyone" : clients.isEmpty() ? "owner only" : "clients " + clients;
        return "Access[" + who + (methods == null ? "" : ", methods " + methods) + "]";
    }
}
