package dev.cumulus.internal.capability;

import dev.cumulus.Cloud;

import java.util.function.Supplier;

/**
 * The replicated objects of one node, as the {@code Cluster} hands them out (module runtime/clouds, artifact
 * {@value #ARTIFACT}; the agent that weaves cloud classes, cumulus-agent, depends on it). Each method is the
 * {@code Cluster} method of the same name.
 */
public interface CloudCapability {
    /** The Maven coordinates of the module that provides this capability. */
    String ARTIFACT = "dev.cumulus:cumulus-clouds";

    <T extends Cloud.Root> T replicated(String name, Supplier<T> factory);
}
