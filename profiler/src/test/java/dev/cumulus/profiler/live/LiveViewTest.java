package dev.cumulus.profiler.live;

import dev.cumulus.profiler.channel.LiveFigures;
import dev.cumulus.profiler.channel.ObjectFigures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The terminal's live line is the editor's figures, as lens lines, without the runtime's own objects. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class LiveViewTest {
    private static ObjectFigures remote(String name, long calls, double p99Us) {
        return new ObjectFigures("remote", name, null, "calls", calls, (double) calls, p99Us / 2, p99Us, 0, 0L, null,
            null, null, null, null);
    }

    @Test
    void oneLineASecondWithTheProgramsBusyObjects() {
        LiveView view = new LiveView(10_000);
        LiveFigures f = new LiveFigures(12_000, 10_800L, List.of(0, 1), 3,
            List.of(remote("worker-1", 50, 120), remote("idle", 0, 0)), List.of(remote("cumulus.names", 9, 40)));
        assertNull(view.accept(f, 10_500), "less than a second since the last line");
        assertEquals("live +2s (JFR lags ~1 s; data 1.2 s old) 2 nodes | sequencer moved 3 | worker-1: 50 calls/s · "
            + "p99 120 µs", view.accept(f, 12_000));
    }
}
