package dev.cumulus.internal.capability;

import dev.cumulus.Barrier;
import dev.cumulus.SharedDouble;
import dev.cumulus.SharedLong;
import dev.cumulus.array.ArrayShape;
import dev.cumulus.array.SharedDoubleArray;
import dev.cumulus.array.SharedFloatArray;
import dev.cumulus.array.SharedIntArray;
import dev.cumulus.array.SharedLongArray;

/**
 * The shared arrays, named barriers and shared scalars of one node, as the {@code Cluster} hands them out (module
 * runtime/arrays, artifact {@value #ARTIFACT}). Each method is the {@code Cluster} method of the same name.
 */
public interface ArrayCapability {
    /** The Maven coordinates of the module that provides this capability. */
    String ARTIFACT = "dev.cumulus:cumulus-arrays";

    SharedDoubleArray sharedDoubleArray(String name, ArrayShape shape);

    SharedFloatArray sharedFloatArray(String name, ArrayShape shape);

    SharedLongArray sharedLongArray(String name, ArrayShape shape);

    SharedIntArray sharedIntArray(String name, ArrayShape shape);

    Barrier barrier(String name, int localThreads);

    Barrier localBarrier(String name, int threads);

    SharedLong sharedLong(String name);

    SharedDouble sharedDouble(String name);
}
