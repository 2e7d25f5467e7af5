package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.RemoteRef;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** One node's part of the name service. Called on call threads (virtual); waits on its own monitor. */
final class NameDirectoryService implements NameDirectory {
    static final int MAX_NAME_CHARS = 256;
    private final Map<String, RemoteRef> bindings = new HashMap<>();

    @Override
    public synchronized RemoteRef bind(String name, RemoteRef ref) {
        RemoteRef existing = bindings.putIfAbsent(name, ref);
        if (existing == null) {
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
        return ref;
    }

    @Override
    public synchronized void unbind(String name, long objectId) {
        RemoteRef known = bindings.get(name);
        if (known != null && known.objectId() == objectId) {
            bindings.remove(name);
            moves.remove(name);
        }
    }

    /** Unbinds every name bound to an object of {@code node} (a client of a standing cluster that is gone). */
    synchronized void unbindAllOf(int node) {
        bindings.entrySet().removeIf(e -> {
            boolean drop = e.getValue().nodeId() == node;
            if (drop) {
                moves.remove(e.getKey());
            }
            return drop;
        });
    }

    @Override
    public synchronized List<String> names(int limit) {
        List<String> all = new ArrayList<>(new TreeSet<>(bindings.keySet()));
        return new ArrayList<>(all.subList(0, Math.min(limit, all.size()))); // a sublist is no transferable value
    }
}
