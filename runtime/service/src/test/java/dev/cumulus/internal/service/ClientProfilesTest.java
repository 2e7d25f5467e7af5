package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.jfr.RemoteCallEvent;
import dev.cumulus.internal.migration.MigrationEvent;
import dev.cumulus.internal.jfr.RemoteCallServedEvent;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A server's share of a profiled client's profile: the calls the client made and the calls to, and moves of, its
 * objects from its window's start; never another client's calls or objects; none for a client that asked for none
 * or whose window ended.
 */
@Timeout(60)
class ClientProfilesTest {
    @TempDir
    Path dir;

    @Test
    void aClientsShareHasItsCallsAndItsObjectsOnlyFromItsWindow() throws Exception {
        ClientProfiles profiles = new ClientProfiles();
        profiles.start(4);
        served(4, "alpha-0");
        served(5, "alpha-0"); // another client calls alpha's object (by its grant): alpha's object's call
        served(5, "beta-0");
        served(4, "cumulus.factory"); // alpha's remoteNew
        served(0, "alpha-1"); // a server calls alpha's object
        served(0, "beta-1");
        called("alpha-1");
        called("beta-1");
        moved("alpha-1");
        moved("beta-0");
        profiles.start(5);
        served(5, "beta-0");

        assertEquals(List.of("RemoteCallServed alpha-0 4", "RemoteCallServed alpha-0 5",
            "RemoteCallServed cumulus.factory 4", "RemoteCallServed alpha-1 0", "RemoteCall alpha-1",
            "Migration alpha-1"), events(profiles.chunk(4, 0, () -> Set.of("alpha-0", "alpha-1"))));
        assertEquals(List.of("RemoteCallServed beta-0 5"), events(profiles.chunk(5, 0,
            () -> Set.of("beta-0", "beta-1"))), "beta's window began after the calls before it");
        assertThrows(CumulusException.class, () -> profiles.chunk(6, 0, Set::of), "6 asked for no profile");

        profiles.end(4);
        profiles.end(5);
        CumulusException e = assertThrows(CumulusException.class, () -> profiles.chunk(4, 0, Set::of));
        assertEquals("this server keeps no profile of client 4: it asked for none (cumulus run --attach NAME "
            + "--profile asks at its start)", e.getMessage());
    }

    private List<String> events(byte[] jfr) throws Exception {
        Path f = Files.write(Files.createTempFile(dir, "share", ".jfr"), jfr);
        List<String> out = new ArrayList<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(f)) {
            String type = e.getEventType().getName().substring("dev.cumulus.".length());
            out.add(type + " " + e.getString("object") + (e.hasField("callerNode") && type.equals("RemoteCallServed")
                ? " " + e.getInt("callerNode") : ""));
        }
        return out;
    }

    private static void served(int caller, String object) {
        RemoteCallServedEvent e = new RemoteCallServedEvent();
        e.begin();
        e.callerNode = caller;
        e.servingNode = 0;
        e.object = object;
        e.method = "add";
        e.outcome = "ok";
        e.commit();
    }

    private static void called(String object) {
        RemoteCallEvent e = new RemoteCallEvent();
        e.begin();
        e.callerNode = 0;
        e.targetNode = 1;
        e.object = object;
        e.method = "add";
        e.outcome = "ok";
        e.commit();
    }

    private static void moved(String object) {
        MigrationEvent e = new MigrationEvent();
        e.begin();
        e.object = object;
        e.kind = "IDLE";
        e.fromNode = 0;
        e.toNode = 1;
        e.reason = "requested";
        e.outcome = "moved";
        e.commit();
    }
}
