package dev.cumulus.internal.service;

/**
 * What one server of a standing cluster tells its administrator ({@link ClusterAdmin#status}): the server's load and
 * memory, the clients attached to it and the clients' objects it serves. Plain values, passed by value.
 *
 * @param server          the server's node id
 * @param pid             its process
 * @param processCpuLoad  the share of the host's CPUs its process used recently, 0..1 (negative: unknown)
 * @param systemLoad      the host's load average over the last minute (negative: unknown)
 * @param heapUsedBytes   heap in use
 * @param heapMaxBytes    the most heap it may use
 * @param threads         its live platform threads
 * @param uptimeMs        how long it has served
 * @param clients         the clients attached to it
 * @param objects         the clients' objects it serves
 */
public record AdminStatus(int server, long pid, double processCpuLoad, double systemLoad, long heapUsedBytes,
                          long heapMaxBytes, int threads, long uptimeMs, ClientStatus[] clients,
                          ObjectStatus[] objects) {

    /**
     * A client attached to a server.
     *
     * @param client its id in the cluster
     * @param name   the principal it attached as (the name its credential was granted under)
     * @param pid    its process on the cluster's host
     */
    public record ClientStatus(int client, String name, long pid) {
    }

    /**
     * A client's object served by a server.
     *
     * @param objectId       its id in the cluster
     * @param name           its name ({@code #id} when it has none)
     * @param owner          the client that made it
     * @param className      its class
     * @param server         the server that serves it
     * @param calls          the calls it served here
     * @param callsPerSecond its calls per second between the two status queries before this one that were at least a
     *                       second apart (the first query: since the server began)
     */
    public record ObjectStatus(long objectId, String name, int owner, String className, int server, long calls,
                               double callsPerSecond) {
    }
}
