package dev.cumulus.internal.capability;

import dev.cumulus.CumulusException;

/** The error a {@code Cluster} method throws when the module of its capability is not on the node's class path. */
public final class MissingCapability {
    private MissingCapability() {
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
