package dev.cumulus.internal.node;

import dev.cumulus.internal.array.ArrayRuntime;
import dev.cumulus.internal.cloud.CloudRuntime;
import dev.cumulus.internal.pastset.PastSetRuntime;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The capability runtimes (tuple space, shared arrays, clouds) every node creates at start, before it joins, so
 * their system objects are served before any peer can call them. Add a capability by adding its factory here.
 */
final class Capabilities {
    private static final List<Function<NodeServices, Object>> FACTORIES = List.of(
        PastSetRuntime::new,
        CloudRuntime::new, ArrayRuntime::new);

    private Capabilities() {
    }

    /** Creates every capability runtime for {@code node}, keyed by its class. */
    static Map<Class<?>, Object> createAll(NodeServices node) {
        Map<Class<?>, Object> all = new LinkedHashMap<>();
        for (Function<NodeServices, Object> factory : FACTORIES) {
            Object capability = factory.apply(node);
            all.put(capability.getClass(), capability);
        }
        return all;
    }
}
