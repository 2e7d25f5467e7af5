package dev.cumulus.internal.pastset;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.cumulus.internal.capability.CapabilityBoundaries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

/** ARCHITECTURE.md's boundaries of runtime/pastset. */
@Timeout(60)
class PastSetBoundariesTest {
    private static final JavaClasses PASTSET = CapabilityBoundaries.mainClasses("dev.cumulus.internal.pastset");

    @Test
    void reachesOtherNodesOnlyThroughNodeServices() {
        CapabilityBoundaries.reachesOtherNodesOnlyThroughNodeServices(PASTSET);
    }

    @Test
    void usesOnlyTheCoreInternalsItNames() {
        CapabilityBoundaries.usesOnlyTheseInternalPackages(PASTSET, List.of("dev.cumulus.internal.pastset.."),
            List.of("dev.cumulus.internal.codec..", "dev.cumulus.internal.rpc..",
                "dev.cumulus.internal.sched.."));
    }
}
