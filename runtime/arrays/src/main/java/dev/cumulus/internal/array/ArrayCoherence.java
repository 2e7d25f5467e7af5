package dev.cumulus.internal.array;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.array.CoherenceMessage.Forward;
import dev.cumulus.internal.array.CoherenceMessage.ForwardReply;
import dev.cumulus.internal.array.CoherenceMessage.Grant;
import dev.cumulus.internal.array.CoherenceMessage.Invalidate;
import dev.cumulus.internal.array.CoherenceMessage.InvalidateAck;
import dev.cumulus.internal.array.CoherenceMessage.ReadRequest;
import dev.cumulus.internal.array.CoherenceMessage.WriteRequest;

import java.util.function.LongSupplier;

/**
 * One array's protocol state on one node: a cache entry per partition, and the directory of each partition this
 * node is home to. {@link #handle} routes a message to the one that answers it. No I/O: the caller sends the
 * {@link Effects}, which is what lets tests run several nodes on a simulated network.
 */
final class ArrayCoherence {
    final Geometry geometry;
    final int self;
    final CacheEntry[] entries;
    /** Per partition, the copy a read hit may use (null when invalid): a {@code double[][]}, {@code int[][]}, ... */
    final Object[] copies;
    final HomeDirectory[] directories;

    ArrayCoherence(Geometry geometry, int self, LongSupplier clock, HomeDirectory.Observer observer) {
        this.geometry = geometry;
        this.self = self;
        int n = geometry.partitions;
        this.entries = new CacheEntry[n];
        this.directories = new HomeDirectory[n];
        ElementKind kind = geometry.spec.kind();
        this.copies = kind.newTable(n);
        for (int p = 0; p < n; p++) {
            int home = geometry.home(p);
            entries[p] = new CacheEntry(geometry.spec.name(), p, self, home, copies);
            if (home == self) {
                Object memory = kind.newArray(geometry.blockLength);
                directories[p] = new HomeDirectory(geometry.spec.name(), p, self, geometry.nodes, memory, clock,
                    observer);
                entries[p].installInitial(memory);
            }
        }
    }

    void handle(CoherenceMessage m, Effects fx) {
        int p = m.partition();
        if (p < 0 || p >= entries.length) {
            throw new CumulusException("shared array '" + geometry.spec.name() + "': message for partition " + p
                + ", which does not exist (0.." + (entries.length - 1) + "); do all nodes create the same array?");
        }
        switch (m) {
            case ReadRequest r -> directory(p).onRequest(Access.READ, r.from(), fx);
            case WriteRequest w -> directory(p).onRequest(Access.WRITE, w.from(), fx);
            case ForwardReply r -> directory(p).onForwardReply(r, fx);
            case InvalidateAck a -> directory(p).onInvalidateAck(a.from(), fx);
            case Grant g -> entries[p].onGrant(g, fx);
            case Invalidate i -> entries[p].onInvalidate(i, fx);
            case Forward f -> entries[p].onForward(f, fx);
        }
    }

    private HomeDirectory directory(int p) {
        HomeDirectory d = directories[p];
        if (d == null) {
            throw new CumulusException("shared array '" + geometry.spec.name() + "': node " + self
                + " got a directory request for partition " + p + ", whose home is node " + geometry.home(p));
        }
        return d;
    }
}
