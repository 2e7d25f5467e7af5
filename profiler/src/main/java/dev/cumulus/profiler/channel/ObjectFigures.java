package dev.cumulus.profiler.channel;

/**
 * One object's figures as the editor shows them (table, chart, code lenses) and {@code cumulus run --live} prints
 * them: the same record live ({@link LiveFigures}, the newest second of every node summed) and after the run
 * ({@link ProfileReport#objects()}, the whole run). Every figure has one definition, made by the profiler
 * ({@code dev.cumulus.profiler.figures}); readers show them and never recompute them. Absent figures are {@code null}
 * (left out of the JSON).
 *
 * <p>Each kind has one counted operation ({@link #operation()}), and the rate and the latencies are of that operation:
 * <ul>
 *   <li>{@code remote}: calls that ran (a call that reached a forwarding address counts once, at the new node);
 *       latency from send to reply, the caller's view;</li>
 *   <li>{@code cloud}: replicated writes; latency from the call to the local apply;</li>
 *   <li>{@code tuple}: moves and observes at the element's home (remote operations seen by callers when no home
 *       summary was recorded); latency of the remote operations;</li>
 *   <li>{@code array}: coherence misses; latency of a miss;</li>
 *   <li>{@code other}: events of one kind and key; no latency.</li>
 * </ul>
 *
 * @param kind             {@code cloud}, {@code remote}, {@code tuple}, {@code array} or {@code other}
 * @param name             the object's name ({@code best}, {@code worker-1}, {@code BarrierWait stage})
 * @param className        a cloud's root class (binary name), when known
 * @param operation        what {@code operations} counts, plural ({@code calls}, {@code writes}, {@code operations},
 *                         {@code misses}, {@code events})
 * @param operations       how many: live, in the newest windows summed over nodes; after the run, over the run
 * @param operationsPerSec live: summed over nodes, each node's count over its window; after the run: the count over
 *                         the run's span (absent when the span is shorter than a second: no extrapolation)
 * @param p50Us            median latency: live, the highest of the nodes' newest windows; after the run, over all
 *                         of the object's operations (absent without latencies)
 * @param p99Us            99th percentile latency, defined as {@code p50Us}
 * @param bytes            bytes on the wire for the object, as the events account them
 * @param failed           remote calls whose outcome was not ok
 * @param hits             arrays: cache hits
 * @param invalidations    arrays: invalidations
 * @param restarts         clouds: reads restarted as writes (cumulative, summed over nodes)
 * @param moves            remote objects after the run: migrations that moved it
 * @param node             remote objects after the run: where it lived at the end ({@code -1} unknown)
 */
public record ObjectFigures(String kind, String name, String className, String operation, long operations,
                            Double operationsPerSec, Double p50Us, Double p99Us, long bytes, Long failed, Long hits,
                            Long invalidations, Long restarts, Long moves, Integer node) {
}
