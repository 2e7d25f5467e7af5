package dev.cumulus.internal.rpc;

import dev.cumulus.Access;
import dev.cumulus.AccessDeniedException;
import dev.cumulus.internal.codec.RemoteRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * One node's part of the name service. Called on call threads (virtual); waits on its own monitor. On a standing
 * cluster's server it keeps each name's {@link AccessRule}: a client looks up only the names it may reach, and
 * unbinds only its own.
 */
final class NameDirectoryService implements NameDirectory {
    static final int MAX_NAME_CHARS = 256;
    private final Map<String, RemoteRef> bindings = new HashMap<>();
    /** The rule of each name a client's object holds (none for the cluster's own objects). */
    private final Map<String, AccessRule> rules = new HashMap<>();
    /** The principal of the client whose call this thread serves, or null (a node's call). */
    private final Supplier<String> caller;

    NameDirectoryService() {
        this(() -> null);
    }

    /** @param caller the principal of the client whose call the current thread serves, or null */
    NameDirectoryService(Supplier<String> caller) {
        this.caller = caller;
    }

    @Override
    public synchronized RemoteRef bind(String name, RemoteRef ref, AccessRule rule) {
        String client = caller.get();
        AccessRule owned = client == null ? rule : rule == null ? AccessRule.of(client, Access.owner())
            : rule.ownedBy(client); // a client owns what it binds, whoever it names
        RemoteRef existing = bindings.putIfAbsent(name, ref);
        if (existing == null) {
            if (owned != null) {
                rules.put(name, owned);
            }
            notifyAll();
        }
        return existing;
    }

    /** For each name whose object migrated: the number of the latest move told. */
    private final Map<String, Integer> moves = new HashMap<>();

    @Override
    public synchronized void moved(String name, RemoteRef ref, int move) {
        RemoteRef known = bindings.get(name);
        if (known != null && known.objectId() == ref.objectId() && move > moves.getOrDefault(name, 0)) {
            bindings.put(name, ref);
            moves.put(name, move);
        }
    }

    @Override
    public synchronized RemoteRef resolve(String name, long waitMs) throws InterruptedException {
        long deadline = System.nanoTime() + Math.min(waitMs, Long.MAX_VALUE / 4_000_000L) * 1_000_000L;
        RemoteRef ref;
        while ((ref = bindings.get(name)) == null) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            wait(Math.max(1, left / 1_000_000L));
        }
        String client = caller.get();
        AccessRule rule = rules.get(name);
        if (client != null && rule != null && !rule.permitsLookup(client)) {
            System.err.println("cumulus: refused client " + client + " a lookup of '" + name + "' (" + rule + ")");
            throw new AccessDeniedException("client " + client + " may not look up '" + name + "': the object belongs "
                + "to client " + rule.owner() + ", who granted " + client + " no access (the owner grants access "
                + "with Access.clients(...), Access.anyone() or Access.methods(...))");
        }
        return ref;
    }

    @Override
    public synchronized void unbind(String name, long objectId) {
        RemoteRef known = bindings.get(name);
        if (known == null || known.objectId() != objectId) {
            return;
        }
        String client = caller.get();
        AccessRule rule = rules.get(name);
        if (client != null && !AccessRule.ADMIN.equals(client) && (rule == null || !rule.owner().equals(client))) {
            throw new AccessDeniedException("client " + client + " may not unbind '" + name + "': it is not the "
                + "object's owner" + (rule == null ? " (the object is the cluster's own)" : " (" + rule.owner() + " is)"));
        }
        bindings.remove(name);
        moves.remove(name);
        rules.remove(name);
    }

    /** Unbinds every name bound to an object of {@code node} (a client of a standing cluster that is gone). */
    synchronized void unbindAllOf(int node) {
        bindings.entrySet().removeIf(e -> {
            boolean drop = e.getValue().nodeId() == node;
            if (drop) {
                moves.remove(e.getKey());
                rules.remove(e.getKey());
            }
            return drop;
        });
    }

    @Override
    public synchronized List<String> names(int limit) {
        String client = caller.get();
        List<String> all = new ArrayList<>(new TreeSet<>(bindings.keySet()));
        if (client != null) {
            all.removeIf(n -> rules.containsKey(n) && !rules.get(n).permitsLookup(client));
        }
        return new ArrayList<>(all.subList(0, Math.min(limit, all.size()))); // a sublist is no transferable value
    }
}
