package dev.cumulus.internal.node;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The capability runtimes (tuple space, shared arrays, clouds, ...) of one node, keyed by class. A node creates them
 * from its {@link NodeServices} at start, before it joins, so their system objects are served before any peer can
 * call them. The node knows none of them: whoever starts it passes the factories.
 */
public final class Capabilities {
    private final Map<Class<?>, Object> all = new LinkedHashMap<>();

    private Capabilities() {
    }

    /** Creates every capability runtime for {@code node}, in the order of {@code factories}. */
    static Capabilities create(List<Function<NodeServices, ?>> factories, NodeServices node) {
        Capabilities capabilities = new Capabilities();
        for (Function<NodeServices, ?> factory : factories) {
            Object capability = factory.apply(node);
            capabilities.all.put(capability.getClass(), capability);
        }
        return capabilities;
    }

    /** The runtime of type {@code type}; throws when the node was started without it. */
    public <T> T get(Class<T> type) {
        T c = find(type);
        if (c == null) {
            throw new IllegalStateException("no capability " + type.getName() + " in this node (was it in the "
                + "factories the node started with?)");
        }
        return c;
    }

    /**
     * The runtime that is a {@code type} (its class, or an interface it implements), or {@code null} when the node
     * was started without one.
     */
    public <T> T find(Class<T> type) {
        Object c = all.get(type);
        if (c == null) {
            c = all.values().stream().filter(type::isInstance).findFirst().orElse(null);
        }
        return type.cast(c);
    }

    /** Closes every runtime that holds resources; a failing one does not stop the others. */
    void closeAll() {
        all.values().forEach(c -> {
            if (c instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception e) {
                    // closing a capability must not stop the node from leaving
                }
            }
        });
    }
}
