package dev.cumulus.internal.array;

import java.lang.reflect.Array;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * One access waiting for a partition: its body runs on the partition's data under the partition's lock, as soon as
 * the node's copy allows it (right after the grant that allows it is installed, before any later invalidation), so
 * every miss makes progress. The future completes after the lock is released.
 */
final class Op {
    final Access access;
    final Function<Object, Object> body;
    final CompletableFuture<Object> future = new CompletableFuture<>();
    final long startNs;
    Object result;
    RuntimeException failure;
    int hops;
    /** Bytes of partition data the grant that served this access brought (0: none, or another access counted them). */
    long receivedBytes;

    Op(Access access, Function<Object, Object> body, long startNs) {
        this.access = access;
        this.body = body;
        this.startNs = startNs;
    }

    /** Runs the body on {@code data} (caller holds the partition's lock). */
    void run(Object data, int hopCount, Effects fx) {
        this.hops = hopCount;
        try {
            result = body.apply(data);
        } catch (RuntimeException e) {
            failure = e;
        }
        fx.complete(this);
    }

    void fail(RuntimeException e, Effects fx) {
        failure = e;
        fx.complete(this);
    }

    /** The size of a partition's data (a primitive array) in bytes. */
    static long sizeBytes(Object data) {
        Class<?> c = data.getClass().getComponentType();
        int each = c == double.class || c == long.class ? 8 : c == int.class || c == float.class ? 4
            : c == short.class || c == char.class ? 2 : 1;
        return (long) Array.getLength(data) * each;
    }

    /** After the lock is released. */
    void finish() {
        if (failure != null) {
            future.completeExceptionally(failure);
        } else {
            future.complete(result);
        }
    }
}
