/**
 * The standing cluster (Babylon's service, {@code cumulus cluster start}): a module above runtime/core that servers
 * and clients of a standing cluster put on their class path.
 *
 * <p>Servers: {@link dev.cumulus.internal.service.StandingServer} is their main; each serves the cluster's clients
 * through {@link dev.cumulus.internal.service.ServedClients}, the RPC engine's
 * {@link dev.cumulus.internal.rpc.ClientService}. {@link dev.cumulus.internal.service.ClientAdmission} (the
 * {@link dev.cumulus.internal.service.ClientGate}) admits a client as the principal its credential was granted under,
 * proving its key with an HMAC, and bounds its outstanding calls; {@link dev.cumulus.internal.service.ClientCalls}
 * is the door each of a client's calls passes before anything of it is decoded (attached, the object's
 * {@link dev.cumulus.internal.rpc.AccessRule}, the call limit); {@link dev.cumulus.internal.service.ClientObjects}
 * knows each client's objects here, so their calls print to their owner's console
 * ({@link dev.cumulus.internal.service.ServerConsole}, {@link dev.cumulus.internal.service.ObjectConsole}) and open
 * their owner's streams ({@link dev.cumulus.internal.service.RemoteStreams} behind {@code dev.cumulus.RemoteIO});
 * {@link dev.cumulus.internal.service.ClientClassLoader} loads a client's classes from its
 * {@link dev.cumulus.internal.service.ClassSource}; {@link dev.cumulus.internal.service.ClusterAdminService} answers
 * {@code cumulus ps}, {@code migrate} and {@code kill} ({@link dev.cumulus.internal.service.AdminStatus}) for the
 * admin only.
 *
 * <p>Clients: {@link dev.cumulus.internal.service.ClientCluster} is a client's {@code Cluster} ({@code Cluster.connect},
 * {@code cumulus run --attach}, through {@link dev.cumulus.internal.service.StandingConnector}) over a
 * {@link dev.cumulus.internal.service.ClientNode} (the RPC engine and a duty cycle on the cluster's transport, without
 * membership: IPC on one host; with servers on several hosts UDP through the keeper's driver, telling each server its
 * endpoint and session as it attaches, {@code ClientGate.attachRemote}), which serves its classes ({@link dev.cumulus.internal.service.LoaderClassSource}) and its console and
 * files ({@link dev.cumulus.internal.service.ClientIOService}); {@link dev.cumulus.internal.service.StandingClusterFile}
 * (the cluster's owner-only state file), {@link dev.cumulus.internal.service.ClientCredential} (a client's credential
 * file), {@link dev.cumulus.internal.service.ClientSlot} (a client's id, held by a file lock) and
 * {@link dev.cumulus.internal.service.ClusterAdministration} (the administrator's client behind the CLI).
 *
 * <p>Threads: the node's (its duty cycle runs {@code ClientCalls} on the polling thread, which never blocks); the
 * calls of a client's objects run on the server's call threads for their owner; a client's departure is handled on
 * the thread that notices it.
 *
 * <p>Never: lets a client's call through undecided (every call from a client id passes {@code ClientCalls}), runs a
 * client's classes outside its own loader, or is depended on by runtime/core (it reaches this module through
 * {@code ClientService}, {@code ClusterConnector} and {@code RemoteStreamsHook}).
 */
package dev.cumulus.internal.service;
