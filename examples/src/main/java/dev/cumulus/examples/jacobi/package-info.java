/**
 * A Jacobi relaxation with heavier sharing than the map colouring (issue 20): an ordinary multithreaded Java program
 * with no Cumulus API in it, for {@code cumulus run --single-vm}. {@code Jacobi} is the program and its sequential
 * check, {@code Grid} the two shared grids, {@code MonitorBarrier} a cyclic barrier built from a monitor with
 * {@code wait}/{@code notifyAll}, {@code Sweeper} the thread that relaxes one band of rows.
 *
 * <p>Threads: the program's own ({@code Sweeper}s, spread round robin over the nodes); each writes only its band of
 * the grid being written and reads the other grid, and the barrier separates the sweeps (its monitor carries the
 * happens-before edges, so a node sees its neighbours' rows of the last sweep). Each sweeper makes its own rows, so
 * with {@code --single-vm} they are homed on the node that writes them and only the rows at band edges travel. Never:
 * shares a JDK collection between threads.
 */
package dev.cumulus.examples.jacobi;
