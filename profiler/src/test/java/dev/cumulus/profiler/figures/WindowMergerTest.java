package dev.cumulus.profiler.figures;

import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.LiveObject;
import dev.cumulus.profiler.channel.LiveWindow;
import dev.cumulus.profiler.channel.ObjectFigures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The cluster's live figures from the nodes' newest windows: sums over nodes, never the last node's alone. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class WindowMergerTest {
    private static LiveWindow window(int node, long recvMs, long windowMs, long sequencerArrivals,
                                     LiveObject... objects) {
        return new LiveWindow(node, recvMs, windowMs, recvMs - 10, recvMs - 5,
            new LiveWindow.Totals(objects.length, 0, 0, 0, sequencerArrivals, 0), List.of(objects), null)
            .received(recvMs);
    }

    private static LiveObject.Remote remote(String name, long calls, double perSec, double p99Us) {
        return new LiveObject.Remote("remote", name, calls, perSec, p99Us / 2, p99Us, 0, calls * 100);
    }

    private static ObjectFigures named(LiveFigures f, String name) {
        return f.objects().stream().filter(o -> o.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void ratesAreSummedOverTheNodesNewestWindowsAndP99IsTheHighest() {
        WindowMerger m = new WindowMerger();
        m.accept(window(0, 10_000, 1000, 0, remote("w", 10, 10, 300)));
        LiveFigures f = m.accept(window(1, 10_100, 1000, 0, remote("w", 20, 20, 120)));
        ObjectFigures w = named(f, "w");
        assertEquals(30, w.operations());
        assertEquals(30.0, w.operationsPerSec());
        assertEquals(300.0, w.p99Us(), "the highest of the nodes' p99");
        assertEquals(3000, w.bytes());
        assertEquals("calls", w.operation());
        assertEquals(List.of(0, 1), f.nodes());

        f = m.accept(window(1, 11_000, 1000, 0, remote("w", 5, 5, 100)));
        assertEquals(15.0, named(f, "w").operationsPerSec(), "node 0's newest 10/s plus node 1's newest 5/s, "
            + "not the 5/s of the node that reported last");
    }

    @Test
    void aNodeWhoseNewestWindowLacksTheObjectAddsNothingAndASilentNodeStopsCounting() {
        WindowMerger m = new WindowMerger();
        m.accept(window(0, 10_000, 1000, 0, remote("w", 10, 10, 300)));
        m.accept(window(1, 10_000, 1000, 0, remote("w", 30, 30, 100)));
        LiveFigures f = m.accept(window(0, 11_000, 1000, 0));
        assertEquals(30.0, named(f, "w").operationsPerSec(), "node 0 is idle now");

        f = m.accept(window(0, 11_000 + WindowMerger.STALE_MS + 1, 1000, 0));
        ObjectFigures w = named(f, "w");
        assertEquals(List.of(0), f.nodes(), "node 1 fell silent");
        assertEquals(0, w.operations(), "still listed, with no activity");
        assertEquals(0.0, w.operationsPerSec());
        assertNull(w.p99Us(), "no latency without operations");
    }

    @Test
    void theRuntimesOwnObjectsAreListedApart() {
        WindowMerger m = new WindowMerger();
        LiveFigures f = m.accept(window(0, 10_000, 1000, 0, remote("cumulus.names", 4, 4, 50),
            remote("cumulus.ArrayService", 9, 9, 50), remote("PastSetService", 2, 2, 50), remote("w", 1, 1, 80),
            new LiveObject.Other("other", "BarrierWait cumulus.close", 1)));
        assertEquals(List.of("w"), f.objects().stream().map(ObjectFigures::name).toList());
        assertEquals(List.of("cumulus.ArrayService", "cumulus.names", "PastSetService", "BarrierWait cumulus.close"),
            f.internal().stream().map(ObjectFigures::name).toList(), "busiest first");
    }

    @Test
    void eachKindCountsItsOwnOperation() {
        WindowMerger m = new WindowMerger();
        m.accept(window(0, 10_000, 500, 2,
            new LiveObject.Cloud("cloud", "best", "demo.Minimum", 50, 100, 20, 40, 800, 2, 3L),
            new LiveObject.Tuple("tuple", "row", 4, 0, 0, 1.5, 900, 64),
            new LiveObject.Array("array", "A", 6, 12, 150, 2, 400, 4096)));
        LiveFigures f = m.accept(window(1, 10_000, 1000, 1,
            new LiveObject.Cloud("cloud", "best", null, 10, 10, 30, 70, 160, 1, 1L),
            new LiveObject.Tuple("tuple", "row", 0, 7, 3, 0, 0, 0)));
        ObjectFigures best = named(f, "best");
        assertEquals(List.of("writes", 60L, 110.0, 70.0, "demo.Minimum", 4L), List.of(best.operation(),
            best.operations(), best.operationsPerSec(), best.p99Us(), best.className(), best.restarts()));
        ObjectFigures row = named(f, "row");
        assertEquals(List.of("operations", 10L, 10.0), List.of(row.operation(), row.operations(),
            row.operationsPerSec()), "moves and observes at the home; the caller's remote operations are among them");
        assertEquals(900.0, row.p99Us());
        ObjectFigures a = named(f, "A");
        assertEquals(List.of("misses", 6L, 12.0, 150.0, 400L, 2L), List.of(a.operation(), a.operations(),
            a.operationsPerSec(), a.p99Us(), a.hits(), a.invalidations()));
        assertEquals(3, f.sequencerMigrations());
        assertEquals(List.of("best", "A", "row"), f.objects().stream().map(ObjectFigures::name).toList());
    }
}
