package dev.cumulus.cli.standing;

import dev.cumulus.Cluster;
import dev.cumulus.Migration;
import dev.cumulus.Remote;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import shipped.values.Geometry;
import shipped.values.GeometryImpl;
import shipped.values.Kind;
import shipped.values.Note;
import shipped.values.OffTheMap;
import shipped.values.Point;
import shipped.values.Route;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Values whose classes only the client has — records, an enum, a {@code @Transferable} class, an exception — as
 * arguments and results of its objects on a standing cluster of two real server processes that have none of them:
 * each server decodes them in that client's own class loader, and the client decodes what comes back in its own.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClientValuesSystemTest {
    @TempDir
    static Path tmp;

    @BeforeAll
    static void startCluster() {
        TestClusters.start(tmp.resolve("cfg"), "values", 2, null); // the servers have none of the client's classes
    }

    @AfterAll
    static void stopCluster() {
        TestClusters.stop("values");
    }

    @Test
    void aClientsOwnRecordsEnumsAndTransferableClassesTravelBothWays() throws Exception {
        try (Cluster c = Cluster.connect("values")) {
            Geometry g = c.remoteNew(GeometryImpl.class, Geometry.class, "geometry", 1);
            Point mid = g.mid(new Point(0, 0), new Point(2, 4));
            assertEquals(new Point(1, 2), mid);
            assertSame(Point.class, mid.getClass(), "the result is of the client's own class");

            Route route = g.extend(new Route("r", List.of(new Point(0, 0), new Point(1, 0)), Kind.OPEN),
                new Point(0, 0));
            assertEquals(new Route("r", List.of(new Point(0, 0), new Point(1, 0), new Point(0, 0)), Kind.CLOSED),
                route);

            Note moved = g.move(new Note("pin", new Point(1, 1)), 0.5, -1);
            assertEquals(new Point(1.5, 0), moved.at());
            assertTrue(moved.text().startsWith("pin (decoded by cumulus-client-"), moved.text());

            OffTheMap off = assertThrows(OffTheMap.class, () -> g.check(new Point(3, 0)));
            assertTrue(off.getMessage().contains("Point[x=3.0, y=0.0] is off the map"), off.getMessage());
            assertEquals(new Point(0.5, 0.5), g.check(new Point(0.5, 0.5)));
        }
    }

    @Test
    void anObjectWhoseFieldsAreOfTheClientsClassesMovesBetweenServers() {
        try (Cluster c = Cluster.connect("values")) {
            Geometry g = c.remoteNew(GeometryImpl.class, Geometry.class, "moving-geometry", 1);
            assertEquals(new Point(3, 3), g.mid(new Point(2, 2), new Point(4, 4)));
            Remote.migrate(g, 0, Migration.DELAYED);
            assertEquals(0, Remote.nodeOf(g));
            assertEquals(new Point(3, 3), g.last(), "its field of the client's record type came along");
            assertEquals(new Point(1, 1), g.mid(new Point(1, 1), new Point(1, 1)), "it serves on the new server");
        }
    }

    @Test
    void twoClientsDecodeTheirValuesEachInItsOwnNameSpace() {
        try (Cluster a = Cluster.connect("values"); Cluster b = Cluster.connect("values")) {
            Geometry ga = a.remoteNew(GeometryImpl.class, Geometry.class, "geometry-a", 1);
            Geometry gb = b.remoteNew(GeometryImpl.class, Geometry.class, "geometry-b", 1);
            String byA = ga.move(new Note("a", new Point(0, 0)), 1, 1).text();
            String byB = gb.move(new Note("b", new Point(0, 0)), 1, 1).text();
            assertTrue(byA.contains("cumulus-client-") && byB.contains("cumulus-client-"), byA + " / " + byB);
            assertNotEquals(byA.substring(byA.indexOf("cumulus-client-")), byB.substring(byB.indexOf("cumulus-client-")),
                "each client's values are decoded by its own loader");
        }
    }
}
