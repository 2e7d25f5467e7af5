package dev.cumulus.internal.capability;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.Cloud;
import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import dev.cumulus.Migration;
import dev.cumulus.Remote;
import dev.cumulus.SafeMode;
import dev.cumulus.array.ArrayShape;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

/**
 * runtime/core's tests run without the capability modules on the class path: each {@code Cluster} method of a
 * capability says which module to add, and the node goes on working.
 */
@Timeout(60)
class MissingCapabilityTest {
    /** A cloud root, never created: replicated() fails before it asks the factory. */
    static final class Counter implements Cloud.Root {
    }

    @Test
    void eachCapabilityCallNamesTheModuleToAdd() {
        LocalCluster.run(1, cluster -> {
            assertNames("dev.cumulus:cumulus-arrays", () -> cluster.sharedIntArray("a", ArrayShape.of(4)));
            assertNames("dev.cumulus:cumulus-arrays", () -> cluster.sharedLong("n"));
            assertNames("dev.cumulus:cumulus-arrays", () -> cluster.barrier("b", 1));
            assertNames("dev.cumulus:cumulus-pastset", cluster::pastSet);
            assertNames("dev.cumulus:cumulus-clouds", () -> cluster.replicated("c", Counter::new));
            cluster.barrier(); // the node itself still works
        });
    }

    @Test
    void connectingToAStandingClusterNamesTheServiceModule() {
        assertNames("dev.cumulus:cumulus-service", () -> Cluster.connect("no-such-cluster"));
    }

    /** A remote object's interface. */
    public interface Echo {
        String echo(String s);
    }

    @Test
    void movingAnObjectNamesTheMigrationModuleAndTheObjectStaysServed() {
        LocalCluster.run(1, cluster -> {
            Echo echo = cluster.export(s -> s + "!", Echo.class, "echo");
            assertNames("dev.cumulus:cumulus-migration", () -> Remote.migrate(echo, 0, Migration.DELAYED));
            assertNames("dev.cumulus:cumulus-migration", () -> Remote.autoPlace(echo));
            assertTrue(echo.echo("still").equals("still!"));
        });
    }

    /** A class whose calls need runtime/migration's safe-mode queue. */
    @SafeMode
    static final class SafeEcho implements Echo {
        @Override
        public String echo(String s) {
            return s;
        }
    }

    @Test
    void exportingASafeModeObjectNamesTheMigrationModule() {
        LocalCluster.run(1, cluster -> {
            assertNames("dev.cumulus:cumulus-migration", () -> cluster.export(new SafeEcho(), Echo.class, "safe"));
            Echo echo = cluster.export(s -> s + "!", Echo.class, "safe"); // the name was not taken
            assertTrue(echo.echo("still").equals("still!"));
        });
    }

    private static void assertNames(String artifact, Executable call) {
        CumulusException e = assertThrows(CumulusException.class, call);
        assertTrue(e.getMessage().contains(artifact) && e.getMessage().contains("add the dependency"),
            e.getMessage());
    }
}
