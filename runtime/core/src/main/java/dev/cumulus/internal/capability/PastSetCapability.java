package dev.cumulus.internal.capability;

import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;

/**
 * The tuple space of one node, as the {@code Cluster} hands it out (module runtime/pastset, artifact
 * {@value #ARTIFACT}). Each method is the {@code Cluster} method of the same name.
 */
public interface PastSetCapability {
    /** The Maven coordinates of the module that provides this capability. */
    String ARTIFACT = "dev.cumulus:cumulus-pastset";

    PastSet pastSet();

    PastSet pastSet(Placement placement);
}
