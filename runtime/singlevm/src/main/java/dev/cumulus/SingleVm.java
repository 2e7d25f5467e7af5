package dev.cumulus;

import dev.cumulus.singlevm.SharedList;
import dev.cumulus.singlevm.SharedMap;
import dev.cumulus.singlevm.SharedPriorityQueue;
import dev.cumulus.singlevm.SpreadExecutor;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ExecutorService;

/**
 * The few helpers a program run with {@code cumulus run --single-vm} (the cluster as one JVM, Hyperion) needs where
 * the JDK's own classes would keep it on one node: a thread pool whose workers spread over the nodes, and
 * collections built from shared objects. JDK collections (a {@code HashMap}, an {@code ArrayList}) stay on the node
 * that made them (rule CUM201); these are program-style classes, woven like the program's own, so any thread on any
 * node may use them. Without {@code --single-vm} (a plain {@code java} run, tests) they are ordinary thread-safe
 * collections and an ordinary thread pool.
 *
 * <p>Every method of the collections holds the collection's monitor (with {@code --single-vm}, a cluster-wide
 * monitor at the node that made it): each call is atomic, as with {@code Collections.synchronizedList}; iteration is
 * not, so hold the monitor ({@code synchronized (list) {...}}) around an iteration that must not interleave. Elements,
 * keys and values move between nodes as any shared object does: strings, boxed primitives, enum constants and the
 * program's own objects. Keys of a map need a value-based {@code hashCode} ({@code String}, boxed numbers, a program
 * class that overrides it): identity hash codes differ between nodes.
 */
public final class SingleVm {
    private SingleVm() {
    }

    /**
     * A thread pool of {@code workers} threads; with {@code --single-vm} they run round robin on the nodes, as the
     * program's own threads do (a JDK pool's threads all stay on the node that made it, rule CUM203). Tasks are shared
     * objects: {@code Runnable} and {@code Callable} lambdas of the program, or program classes; a result must be a
     * value or a shared object; a task's exception reaches {@code Future.get} as an {@code ExecutionException} naming
     * it (the exception object itself stays where it was thrown).
     *
     * @throws IllegalArgumentException if {@code workers < 1}
     */
    public static ExecutorService executor(int workers) {
        return new SpreadExecutor(workers, "single-vm-worker");
    }

    /** A list (random access, growable), thread-safe. */
    public static <E> List<E> list() {
        return new SharedList<>();
    }

    /** A hash map, thread-safe; keys need a value-based {@code hashCode} (see the class comment). */
    public static <K, V> Map<K, V> map() {
        return new SharedMap<>();
    }

    /** A priority queue in the elements' natural order (they must be {@code Comparable}), thread-safe. */
    public static <E extends Comparable<? super E>> Queue<E> priorityQueue() {
        return new SharedPriorityQueue<>(null);
    }

    /**
     * A priority queue in {@code order}, thread-safe. With {@code --single-vm} the comparator must be an object of a
     * program class (a lambda or a JDK comparator such as {@code Comparator.comparingInt(...)} stays on the node that
     * made it): write a small class implementing {@code Comparator}.
     */
    public static <E> Queue<E> priorityQueue(Comparator<? super E> order) {
        return new SharedPriorityQueue<>(java.util.Objects.requireNonNull(order, "order"));
    }
}
