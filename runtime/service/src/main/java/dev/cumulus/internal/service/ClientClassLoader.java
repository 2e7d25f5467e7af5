package dev.cumulus.internal.service;

import dev.cumulus.internal.rpc.ClientNameSpace;

/**
 * The name space of one client of a standing cluster on a server (Babylon §4.1): the classes the server has itself
 * (the runtime, the cluster's classpath) from its own loader first, the others from the client, asked over the
 * cluster's transport ({@link ClassSource}) when first needed and defined here. Two clients' classes of the same name
 * live side by side in their two loaders. A class of the JDK's or Cumulus's packages never comes from a client. When
 * the client goes, nothing refers to its loader any more and it is collected with its classes.
 */
final class ClientClassLoader extends ClassLoader implements ClientNameSpace {
    static {
        registerAsParallelCapable();
    }

    private final int client;
    private final ClassSource source;

    ClientClassLoader(int client, ClassLoader parent, ClassSource source) {
        super("cumulus-client-" + client, parent);
        this.client = client;
        this.source = source;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        if (!ClassSource.shippable(name)) {
            throw new ClassNotFoundException(name + " (a class of the JDK's or Cumulus's own packages never comes from "
                + "client " + client + ")");
        }
        byte[] bytes;
        try {
            bytes = source.classBytes(name);
        } catch (RuntimeException e) {
            throw new ClassNotFoundException(name + " (client " + client + " could not ship it: " + e.getMessage()
                + ")", e);
        }
        if (bytes == null) {
            throw new ClassNotFoundException(name + " (neither this server nor client " + client + " has it)");
        }
        if (bytes.length > ClassSource.MAX_CLASS_BYTES) {
            throw new ClassNotFoundException(name + " (client " + client + " shipped " + bytes.length
                + " bytes, more than the " + ClassSource.MAX_CLASS_BYTES + " a class may have)");
        }
        return defineClass(name, bytes, 0, bytes.length);
    }

    int client() {
        return client;
    }
}
