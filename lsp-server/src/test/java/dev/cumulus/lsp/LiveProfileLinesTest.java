package dev.cumulus.lsp;

import dev.cumulus.lsp.model.ProfileFigures;
import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.ProfileGson;
import dev.cumulus.profiler.channel.ProfileRecord;
import dev.cumulus.profiler.channel.ProfileReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The run's profile channel ({@code @cumulus-profile} lines) reaches the lenses and the editor's profile view. */
@Timeout(30)
class LiveProfileLinesTest {
    @Test
    void theProfilersFiguresUpdateTheLensesAndGoToTheClientAsTheyAre() {
        List<ProfileRecord> forwarded = new CopyOnWriteArrayList<>();
        CumulusProtocol.Client client = (CumulusProtocol.Client) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {CumulusProtocol.Client.class}, (proxy, method, args) -> {
                if (method.getName().equals("profile")) {
                    forwarded.add((ProfileRecord) args[0]);
                }
                return null;
            });
        ProfileFigures figures = new ProfileFigures();
        AtomicInteger refreshes = new AtomicInteger();
        ExecuteCommandHandler handler = new ExecuteCommandHandler(() -> null, null, null, null, figures, () -> client,
            refreshes::incrementAndGet, () -> false);

        ProfileRecord window = ProfileGson.read("""
            {"type":"window","version":2,"node":0,"sentMs":1,"windowMs":1000,"objects":[
              {"kind":"remote","name":"worker-1","calls":40,"callsPerSec":39.9,"p99Us":420.7}]}""");
        ProfileRecord live = ProfileGson.read("""
            {"type":"figures","version":2,"tMs":5,"nodes":[0,1],"sequencerMigrations":3,"objects":[
              {"kind":"cloud","name":"best","className":"demo.Minimum","operation":"writes","operations":760,
               "operationsPerSec":757.7,"p50Us":20,"p99Us":310.5,"bytes":0},
              {"kind":"remote","name":"worker-1","operation":"calls","operations":80,"operationsPerSec":79.8,
               "p50Us":95,"p99Us":420.7,"bytes":0,"failed":0}],
             "internal":[{"kind":"remote","name":"cumulus.names","operation":"calls","operations":2,
               "operationsPerSec":2,"bytes":0}]}""");
        ProfileRecord report = ProfileGson.read("""
            {"type":"report","version":2,"runDir":"/tmp/r","objects":[
              {"kind":"remote","name":"worker-1","operation":"calls","operations":3000,"operationsPerSec":150,
               "p50Us":95,"p99Us":1200,"bytes":0,"failed":0}],"internal":[]}""");
        handler.acceptProfile(window);
        assertEquals(0, refreshes.get(), "one node's window is not what the lenses show");
        handler.acceptProfile(live);

        assertEquals(757.7, figures.get("best").operationsPerSec());
        assertEquals("best", figures.ofClass("demo.Minimum").getFirst().name(), "lenses on the class find the cloud");
        assertEquals("worker-1: 80 calls/s · p99 421 µs", figures.describe(figures.get("worker-1")),
            "a remote object's lens speaks of calls, with the figures the profiler made");
        assertEquals("best: 758 writes/s · p99 311 µs", figures.describe(figures.get("best")));
        assertEquals(1, refreshes.get());

        handler.acceptProfile(report);
        assertEquals("worker-1: 3,000 calls · 150.0/s · p99 1.2 ms", figures.describe(figures.get("worker-1")),
            "after the run, the report's figures: the table's");
        assertEquals(null, figures.get("best"), "the report's objects replace the live ones");
        assertEquals(List.of(live, report), forwarded, "the figures and the report go to the client as they are");
        assertSame(LiveFigures.class, forwarded.getFirst().getClass());
        assertEquals("/tmp/r", ((ProfileReport) forwarded.get(1)).runDir());
        assertEquals(2, refreshes.get(), "a lens refresh per change of figures");
    }
}
