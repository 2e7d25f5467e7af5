/**
 * Hyperion's minimal-cost map colouring (seeds/hyperion.txt §5), an ordinary multithreaded Java program with no Cumulus
 * API in it: run it with {@code cumulus run --single-vm --nodes N} and its threads spread over the nodes while its
 * objects (the work pool, the best colouring) live in the shared heap. {@code MapColouring} is the program,
 * {@code EasternStates} the map, {@code WorkPool} the monitor-guarded pool of search states, {@code Best} the best
 * colouring under its monitor, {@code Search} the branch-and-bound step (also the sequential search that checks the
 * result).
 *
 * <p>Threads: the program's own ({@code Searcher}s, spread round robin); every shared object is reached only under its
 * monitor. Never: shares a JDK collection between threads (the single-VM mode keeps those on their node).
 */
package dev.cumulus.examples.colouring;
