package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.rpc.ClientService;
import dev.cumulus.internal.rpc.RemoteObjects;
import dev.cumulus.internal.rpc.RpcEngine;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A standing cluster's server side as its node's RPC engine and remote objects see it ({@link ClientService}): the
 * clients {@link ClientAdmission} admits, the door their calls pass ({@link ClientCalls}), their objects here
 * ({@link ClientObjects}: owner, output, remote I/O), each client's name space ({@link ClientClassLoader}), and the
 * administration service. When a client goes, what it made here goes with it: no longer served, its names unbound, its
 * classes forgotten.
 *
 * <p>Threads: as {@link ClientService} says; a client's departure runs on the thread that notices it.
 */
public final class ServedClients implements ClientService {
    private final RpcEngine engine;
    private final RemoteObjects objects;
    private final ClientAdmission admission;
    private final ClientCalls calls;
    private final ClientObjects owned;
    private final ClassLoader nodeLoader;
    /** The name space of each client that made objects here. */
    private final Map<Integer, ClientClassLoader> loaders = new ConcurrentHashMap<>();

    /** An object a client's call is making here, and what its thread ran before. */
    private record Making(ClientObjects.Entry entry, ClientObjects.Entry outer) {
    }

    private ServedClients(RpcEngine engine, RemoteObjects objects, ClientAdmission admission) {
        this.engine = engine;
        this.objects = objects;
        this.admission = admission;
        this.nodeLoader = objects.loader();
        this.owned = new ClientObjects(engine, System::nanoTime);
        this.calls = new ClientCalls(engine.nodeId(), engine.exports(), admission, engine.capacity());
        ServerConsole.install();
        RemoteStreams.serving();
        engine.exportSystem(ClientGate.OBJECT_ID, admission, ClientGate.class);
        engine.exportSystem(ClusterAdmin.OBJECT_ID, new ClusterAdminService(engine, admission, owned),
            ClusterAdmin.class);
        admission.onClientGone(this::gone);
        admission.route(engine::clientAttached);
    }

    /** What makes a server's client service, admitting the clients {@code admission} admits. */
    public static ClientService.Factory serving(ClientAdmission admission) {
        return (engine, objects) -> new ServedClients(engine, objects, admission);
    }

    /**
     * What makes the client service of a server of a cluster whose clients prove {@code credential}, the key the run's
     * secret derives for it ({@code cumulus cluster start}).
     */
    public static ClientService.Factory serving(byte[] credential) {
        return (engine, objects) -> new ServedClients(engine, objects,
            new ClientAdmission(credential, engine.servers(), engine.capacity()));
    }

    /** The name space of client {@code client} here, or {@code null} when it made nothing here or is gone (tests). */
    public ClassLoader clientLoader(int client) {
        return loaders.get(client);
    }

    @Override
    public CumulusException admit(int client, long objectId, int methodId) {
        return calls.refusal(client, objectId, methodId);
    }

    @Override
    public boolean counts(long objectId) {
        return ClientCalls.counts(objectId);
    }

    @Override
    public void endCall(int client) {
        admission.endCall(client);
    }

    @Override
    public String principal(int client) {
        return admission.principal(client);
    }

    @Override
    public void own(int client, long objectId, String name) {
        admission.own(client, objectId, name);
    }

    @Override
    public Object enter(long objectId) {
        return owned.enter(objectId);
    }

    @Override
    public void exit(Object prior) {
        owned.exit((ClientObjects.Entry) prior);
    }

    @Override
    public ClassLoader loaderOf(int client) {
        return loaders.computeIfAbsent(client,
            c -> new ClientClassLoader(c, nodeLoader, engine.proxy(new RemoteRef(c, ClassSource.OBJECT_ID,
                ClassSource.class.getName()), ClassSource.class, "cumulus.classes")));
    }

    @Override
    public Object making(int client, String name, String className) {
        ClientObjects.Entry made = owned.newEntry(client, name, className);
        return new Making(made, owned.enterEntry(made));
    }

    @Override
    public void made(Object making, long objectId) {
        owned.register(objectId, ((Making) making).entry());
    }

    @Override
    public void doneMaking(Object making) {
        owned.exit(((Making) making).outer());
    }

    @Override
    public int ownerOf(long objectId) {
        return owned.ownerOf(objectId);
    }

    @Override
    public void movedAway(long objectId) {
        owned.remove(objectId);
    }

    @Override
    public void movedHere(long objectId, int owner, String name, String className) {
        owned.add(objectId, owner, name, className);
        admission.cameHere(owner, name);
    }

    /** Client {@code client} left or died: what it made here goes. */
    private void gone(int client, List<ClientAdmission.Owned> made) {
        List<Long> left = owned.removeClient(client); // first: no new calls to it from its objects
        engine.failCallsTo(client, "the client left the cluster"); // its objects' threads waiting on it go on
        for (long moved : left) { // what it made here, or that moved here
            engine.unexport(moved);
        }
        objects.unbindAllOf(client); // what it exported itself
        ClientClassLoader loader = loaders.remove(client);
        if (loader != null) {
            engine.forgetClasses(loader);
        }
        for (ClientAdmission.Owned o : made) {
            engine.unexport(o.objectId());
            try {
                objects.unbind(o.name(), o.objectId());
            } catch (RuntimeException e) {
                System.err.println("cumulus: node " + engine.nodeId() + ": cannot unbind '" + o.name()
                    + "' of the departed client " + client + ": " + e.getMessage());
            }
        }
    }
}
