package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.Migration;
import dev.cumulus.internal.codec.RemoteRef;

import java.time.Duration;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Supplier;

/**
 * What moves a node's remote objects ({@code Remote.migrate}, {@code Remote.autoPlace}, {@code cumulus run
 * --rebalance}): module runtime/migration, artifact {@value #ARTIFACT}, registers its {@link Provider} in
 * {@code META-INF/services}; the node makes it at start. The RPC engine keeps what a move needs of an object — its
 * {@link ObjectGate} and the hand-over of the calls it held — and the mover decides and runs the moves, copies the
 * objects' state and runs the calls of {@code @SafeMode} objects ({@link SafeModeQueue}). Without the module, asking
 * for a move, or exporting an object of a {@code @SafeMode} class, says which dependency to add.
 */
public interface ObjectMover {
    /** The Maven coordinates of the module that moves objects. */
    String ARTIFACT = "dev.cumulus:cumulus-migration";

    /** {@code Remote.migrate}: returns once the object serves calls on {@code node}. */
    void migrate(RemoteInvocationHandler proxy, int node, Migration kind);

    /** {@code Remote.autoPlace}: from now on the object moves to the node that makes most of its calls. */
    void followCalls(RemoteInvocationHandler proxy);

    /** A user object was exported here (under {@code --rebalance} it follows its calls). */
    void exported(long objectId);

    /**
     * The call queue of a new entry for {@code target}, an object of a {@code @SafeMode} class named {@code name},
     * whose calls enter through {@code gate}.
     */
    SafeModeQueue safeModeQueue(Object target, String name, ObjectGate gate);

    /**
     * The calls of one {@code @SafeMode} object: one at a time, in the order they came, never on the polling thread,
     * each after a checkpoint of the object's state ({@code Migration.SAFE_POINT} puts it back). With the object's gate
     * it is one waiting line: a move that ends finds every earlier call held at the gate or still queued.
     */
    interface SafeModeQueue {
        /** Queues a call; it runs after every call submitted before it. */
        void submit(ObjectGate.Held call);

        /**
         * Runs a call the queue let in at the gate (its thread): a checkpoint first, then {@code body}; a call that
         * stops at {@code Migration.point()} gets the checkpoint put back and is held first in line.
         */
        void serve(ObjectGate.Held call, Runnable body);

        /**
         * The object moved for good: {@code forward} leaves the gate forwarding and returns the calls it held; the
         * calls still queued follow them. Returns them all, in the order they came.
         */
        List<ObjectGate.Held> forward(Supplier<List<ObjectGate.Held>> forward);

        /** The gate opens: the calls {@code reopen} returns go ahead of those queued meanwhile. Returns how many. */
        int reopen(Supplier<List<ObjectGate.Held>> reopen);
    }

    /** What a move tells the name directory: the object under {@code name} is at {@code ref} after move {@code moves}. */
    @FunctionalInterface
    interface Rebind {
        void moved(String name, RemoteRef ref, int moves);
    }

    /** Makes a node's mover at start (exports its system object, {@link MigrationService}); must not block. */
    interface Provider {
        /**
         * @param rebalanceWindow {@code cumulus run --rebalance}'s window, or {@link Duration#ZERO} when it is off
         */
        ObjectMover create(RpcEngine engine, int size, ClassLoader loader, Rebind rebind, Duration rebalanceWindow);
    }

    /**
     * The mover of the module on {@code loader}'s class path (else runtime/core's), or one that refuses every move
     * naming the module to add.
     *
     * @throws CumulusException when {@code --rebalance} is on and the module is not there
     */
    static ObjectMover start(RpcEngine engine, int size, ClassLoader loader, Rebind rebind, Duration rebalanceWindow) {
        Provider provider = ServiceLoader.load(Provider.class, loader).findFirst()
            .or(() -> ServiceLoader.load(Provider.class, ObjectMover.class.getClassLoader()).findFirst())
            .orElse(null);
        if (provider != null) {
            return provider.create(engine, size, loader, rebind, rebalanceWindow);
        }
        if (!rebalanceWindow.isZero()) {
            throw missing("cumulus run --rebalance");
        }
        return new ObjectMover() {
            @Override
            public void migrate(RemoteInvocationHandler proxy, int node, Migration kind) {
                throw missing("Remote.migrate");
            }

            @Override
            public void followCalls(RemoteInvocationHandler proxy) {
                throw missing("Remote.autoPlace");
            }

            @Override
            public void exported(long objectId) {
            }

            @Override
            public SafeModeQueue safeModeQueue(Object target, String name, ObjectGate gate) {
                throw missing("exporting '" + name + "', of the @SafeMode class " + target.getClass().getName() + ",");
            }
        };
    }

    private static CumulusException missing(String what) {
        return new CumulusException(what + " needs the module " + ARTIFACT + ", which is not on this node's class "
            + "path: add the dependency " + ARTIFACT + " to the program's build (./cumulus run and ./cumulus classpath "
            + "include it)");
    }
}
