/**
 * Standing clusters ({@code cumulus cluster start|stop|list}): long-lived server nodes that many client programs use.
 * {@link dev.cumulus.cli.standing.ClusterRegistry} keeps the user's clusters in owner-only state files
 * ({@link dev.cumulus.cli.standing.ClusterRecord}: the driver's directory, the processes, the admin credential);
 * {@link dev.cumulus.cli.standing.KeeperProcess} starts a cluster's keeper in the background and waits until it
 * serves; {@link dev.cumulus.cli.standing.StandingKeeper} is that keeper: it runs the servers through the launcher of
 * {@code cumulus run} ({@code ClusterLauncher}, main class {@code StandingServer}) for as long as it lives, on this
 * host or on the hosts of {@link dev.cumulus.cli.standing.ServerHosts} (then with a media driver of its own for the
 * clients, which reach the servers over UDP), and learns from node 0's output that they serve
 * ({@link dev.cumulus.cli.standing.ServingWatch});
 * {@link dev.cumulus.cli.standing.ClusterStop} stops a cluster and removes everything it left.
 *
 * <p>Threads: the command's thread; in the keeper also the launcher's thread, its output pumps (through
 * {@code ServingWatch}) and the shutdown hooks (the launcher's, the clients' driver's).
 *
 * <p>Never: writes the admin credential anywhere but the owner-only state file; leaves a server, the driver's
 * directory or the cluster's files behind after {@code stop}; waits by sleeping (it waits on files and process exits
 * with deadlines).
 */
package dev.cumulus.cli.standing;
