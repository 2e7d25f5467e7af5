package dev.cumulus.internal.cloud;

import com.tngtech.archunit.core.domain.JavaClasses;
import dev.cumulus.internal.capability.CapabilityBoundaries;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

/** ARCHITECTURE.md's boundaries of runtime/clouds. */
@Timeout(60)
class CloudsBoundariesTest {
    private static final JavaClasses CLOUDS = CapabilityBoundaries.mainClasses("dev.cumulus.internal.cloud");

    @Test
    void reachesOtherNodesOnlyThroughNodeServices() {
        CapabilityBoundaries.reachesOtherNodesOnlyThroughNodeServices(CLOUDS);
    }

    @Test
    void usesOnlyTheCoreInternalsItNames() {
        CapabilityBoundaries.usesOnlyTheseInternalPackages(CLOUDS, List.of("dev.cumulus.internal.cloud.."),
            List.of("dev.cumulus.internal.codec..", "dev.cumulus.internal.order..", "dev.cumulus.internal.jfr..",
                "dev.cumulus.internal.sched..", "dev.cumulus.internal.wire.."));
    }
}
