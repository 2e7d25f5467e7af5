package dev.cumulus.internal.array;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.cumulus.internal.capability.CapabilityBoundaries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

/** ARCHITECTURE.md's boundaries of runtime/arrays. */
@Timeout(60)
class ArraysBoundariesTest {
    private static final JavaClasses ARRAYS = CapabilityBoundaries.mainClasses("dev.cumulus.internal.array");

    @Test
    void reachesOtherNodesOnlyThroughNodeServices() {
        CapabilityBoundaries.reachesOtherNodesOnlyThroughNodeServices(ARRAYS);
    }

    @Test
    void usesOnlyTheCoreInternalsItNames() {
        CapabilityBoundaries.usesOnlyTheseInternalPackages(ARRAYS, List.of("dev.cumulus.internal.array.."),
            List.of("dev.cumulus.internal.codec..", "dev.cumulus.internal.rpc..", "dev.cumulus.internal.sched.."));
    }
}
