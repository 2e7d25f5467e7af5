package dev.cumulus.internal.capability;

import dev.cumulus.CumulusException;

import java.util.Optional;
import java.util.ServiceLoader;

/** The error a {@code Cluster} method throws when the module of its capability is not on the node's class path. */
public final class MissingCapability {
    private MissingCapability() {
    }

    /**
     * The implementation of {@code spi} that a module registers in {@code META-INF/services}: on the thread's context
     * class loader's class path, else on runtime/core's; empty when the module is on neither.
     */
    static <T> Optional<T> find(Class<T> spi) {
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return ServiceLoader.load(spi, context != null ? context : spi.getClassLoader()).findFirst()
            .or(() -> ServiceLoader.load(spi, spi.getClassLoader()).findFirst());
    }

    /**
     * An exception saying that {@code what} (e.g. "shared arrays") needs {@code artifact} (Maven coordinates) on the
     * class path, and how to get it there.
     */
    public static CumulusException error(String what, String artifact) {
        return new CumulusException(what + " need the module " + artifact + ", which is not on this node's class "
            + "path: add the dependency " + artifact + " to the program's build (./cumulus run and ./cumulus classpath "
            + "include it)");
    }
}
