package dev.cumulus.internal.rpc;

import dev.cumulus.Access;
import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.RemoteRef;

import java.lang.reflect.Constructor;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;

/**
 * The remote-object API of one node (export, lookup, remoteNew) over {@link RpcEngine} and the name service.
 * Any user thread.
 */
public final class RemoteObjects {
    private final RpcEngine engine;
    private final int size;
    private final ClassLoader loader;
    /** This node's part of the name service. */
    private final NameDirectoryService localDirectory;
    /** The principal of this client of a standing cluster (what it makes is its own), or null on a node. */
    private volatile String principal;

    /** @param rebalanceWindow {@code cumulus run --rebalance}'s window, or {@link Duration#ZERO} when it is off */
    public RemoteObjects(RpcEngine engine, int size, ClassLoader loader, Duration rebalanceWindow) {
        this.engine = engine;
        this.size = size;
        this.loader = loader;
        this.localDirectory = new NameDirectoryService(engine::callingPrincipal);
        engine.exportSystem(NameDirectory.OBJECT_ID, localDirectory, NameDirectory.class);
        engine.exportSystem(RemoteFactory.OBJECT_ID, (RemoteFactory) this::createHere, RemoteFactory.class);
        engine.migrations(ObjectMover.start(engine, size, loader,
            (name, ref, moves) -> directoryFor(name).moved(name, ref, moves), rebalanceWindow));
    }

    /** Serves a standing cluster's clients through the service {@code clients} makes (runtime/service). */
    public void serveClients(ClientService.Factory clients) {
        engine.clientService(clients.serve(engine, this));
    }

    /** What serves a standing cluster's clients here ({@link ClientService#NONE} on a node of a run). */
    public ClientService clientService() {
        return engine.clientService();
    }

    /** The class loader of this node's program (a client's name space loads through it). */
    public ClassLoader loader() {
        return loader;
    }

    /** Unbinds every name client {@code client} bound in this node's part of the name service (it is gone). */
    public void unbindAllOf(int client) {
        localDirectory.unbindAllOf(client);
    }

    /** Unbinds {@code name} from the object {@code objectId}, wherever the name service keeps it. */
    public void unbind(String name, long objectId) {
        directoryFor(name).unbind(name, objectId);
    }

    /** This is a client of a standing cluster, attached as {@code principal}: what it exports and makes is its own. */
    public void actAs(String principal) {
        this.principal = principal;
    }

    public <T> T export(T object, Class<T> iface, String name) {
        return export(object, iface, name, Access.owner());
    }

    /**
     * Exports {@code object}; on a client of a standing cluster it is the client's own and others reach it as
     * {@code access} grants (on a node of the cluster the grant changes nothing: every node reaches every object).
     */
    public <T> T export(T object, Class<T> iface, String name, Access access) {
        if (access == null) {
            throw new CumulusException("cannot export '" + name + "' without an Access (Access.owner() is the default)");
        }
        String owner = principal;
        return export(object, iface, name, owner == null ? null : AccessRule.of(owner, access));
    }

    private <T> T export(T object, Class<T> iface, String name, AccessRule rule) {
        checkName(name);
        checkUserName(name);
        if (object == null) {
            throw new CumulusException("cannot export null as '" + name + "'");
        }
        RemoteRef ref = engine.export(object, iface, name, rule);
        RemoteRef existing = directoryFor(name).bind(name, ref, rule);
        if (existing != null) {
            throw new CumulusException("the name '" + name + "' is already taken by an object on node "
                + existing.nodeId() + " (" + existing.interfaceName() + "); export under another name");
        }
        engine.migrations().exported(ref.objectId());
        return engine.proxy(ref, iface, name);
    }

    public <T> T lookup(String name, Class<T> iface, Duration wait) {
        checkName(name);
        RemoteRef ref;
        NameDirectory directory = directoryFor(name);
        try {
            ref = directory.resolve(name, Math.max(0, wait.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while looking up '" + name + "'", e);
        }
        if (ref == null) {
            List<String> known = directory.names(10);
            throw new CumulusException("no remote object named '" + name + "' was exported within " + wait.toMillis()
                + " ms" + (known.isEmpty() ? "" : " (names on its directory node: " + String.join(", ", known) + ")")
                + "; check the name, or export it before looking it up");
        }
        checkInterface(ref, iface, name);
        return engine.proxy(ref, iface, name);
    }

    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int node) {
        return remoteNew(impl, iface, name, node, Access.owner());
    }

    /**
     * {@code remoteNew}; made by a client of a standing cluster, the object is the client's own and others reach it as
     * {@code access} grants (on a node of the cluster the grant changes nothing).
     */
    public <T> T remoteNew(Class<? extends T> impl, Class<T> iface, String name, int node, Access access) {
        if (access == null) {
            throw new CumulusException("remoteNew of '" + name + "' needs an Access (Access.owner() is the default)");
        }
        checkName(name);
        checkUserName(name);
        if (node < 0 || node >= size) {
            throw new CumulusException("remoteNew: node " + node + " is outside 0.." + (size - 1));
        }
        if (!iface.isAssignableFrom(impl)) {
            throw new CumulusException(impl.getName() + " does not implement " + iface.getName());
        }
        RemoteFactory factory = engine.proxy(new RemoteRef(node, RemoteFactory.OBJECT_ID, RemoteFactory.class.getName()),
            RemoteFactory.class, "cumulus.factory");
        String owner = principal;
        RemoteRef ref = factory.create(impl.getName(), iface.getName(), name,
            owner == null ? null : AccessRule.of(owner, access));
        return engine.proxy(ref, iface, name);
    }

    private RemoteRef createHere(String implClass, String ifaceName, String name, AccessRule asked) {
        Integer client = RpcEngine.systemCaller();
        String owner = engine.callingPrincipal();
        // a client's object is its own whatever the rule it sent claims; a node's is the cluster's
        AccessRule rule = owner == null ? null
            : asked == null ? AccessRule.of(owner, Access.owner()) : asked.ownedBy(owner);
        ClientService clients = engine.clientService();
        ClassLoader loader = client == null ? this.loader : clients.loaderOf(client);
        Object making = client == null ? null : clients.making(client, name, implClass); // runs for its owner
        try {
            Class<?> iface = Class.forName(ifaceName, false, loader);
            Class<?> impl = Class.forName(implClass, true, loader);
            if (!iface.isInterface() || !iface.isAssignableFrom(impl)) {
                throw new CumulusException(implClass + " does not implement interface " + ifaceName);
            }
            Constructor<?> ctor = impl.getDeclaredConstructor();
            ctor.setAccessible(true);
            Object instance = ctor.newInstance();
            @SuppressWarnings("unchecked")
            Class<Object> typed = (Class<Object>) iface;
            Object proxy = export(instance, typed, name, rule);
            RemoteRef ref = ((RemoteInvocationHandler) Proxy.getInvocationHandler(proxy)).ref();
            engine.noteOwner(ref.objectId(), name);
            if (making != null) {
                clients.made(making, ref.objectId());
            }
            return ref;
        } catch (ClassNotFoundException e) {
            throw new CumulusException("node " + engine.nodeId() + " cannot load " + e.getMessage()
                + (client == null ? "; every node must run with the same classpath" : ""));
        } catch (NoSuchMethodException e) {
            throw new CumulusException(implClass + " needs a no-argument constructor for remoteNew");
        } catch (ReflectiveOperationException e) {
            throw new CumulusException("could not create " + implClass + ": " + e, e);
        } finally {
            if (making != null) {
                clients.doneMaking(making);
            }
        }
    }

    /**
     * The name service's proxy waits as long as its node lives: a lookup already bounds its own wait, and a short
     * user call timeout must not turn "not exported yet" into a timeout of the directory. On a standing cluster (a
     * server that serves clients, or a client) a name whose directory server is gone goes to the next server that is
     * not (the names that server held are lost with it); in a run, the node a name hashes to is its directory.
     */
    private NameDirectory directoryFor(String name) {
        int node = Math.floorMod(name.hashCode(), size);
        if (principal != null || engine.clientService() != ClientService.NONE) {
            for (int tried = 1; tried < size && engine.goneReason(node) != null; tried++) {
                node = (node + 1) % size;
            }
        }
        return engine.proxy(new RemoteRef(node, NameDirectory.OBJECT_ID, NameDirectory.class.getName()),
            NameDirectory.class, "cumulus.names", 0);
    }

    private void checkInterface(RemoteRef ref, Class<?> iface, String name) {
        if (ref.interfaceName().equals(iface.getName())) {
            return;
        }
        try {
            Class<?> exported = Class.forName(ref.interfaceName(), false, loader);
            if (iface.isAssignableFrom(exported)) {
                return;
            }
        } catch (ClassNotFoundException e) {
            // fall through
        }
        throw new CumulusException("'" + name + "' was exported as " + ref.interfaceName() + ", which is not a "
            + iface.getName());
    }

    /** Names that start with {@code cumulus.} are the runtime's own (the profile leaves them out). */
    static final String SYSTEM_PREFIX = "cumulus.";

    private static void checkUserName(String name) {
        if (name.startsWith(SYSTEM_PREFIX)) {
            throw new CumulusException("remote object names starting with '" + SYSTEM_PREFIX + "' are Cumulus's own; "
                + "export '" + name + "' under another name");
        }
    }

    private static void checkName(String name) {
        if (name == null || name.isEmpty() || name.length() > NameDirectoryService.MAX_NAME_CHARS) {
            throw new CumulusException("remote object names must have 1 to " + NameDirectoryService.MAX_NAME_CHARS
                + " characters, got " + (name == null ? "null" : name.length()));
        }
    }
}
