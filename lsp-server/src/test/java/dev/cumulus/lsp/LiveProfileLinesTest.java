package dev.cumulus.lsp;

import dev.cumulus.lsp.model.ProfileFigures;
import dev.cumulus.profiler.channel.LiveWindow;
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
    void aWindowUpdatesTheLensesAndEveryRecordGoesToTheClientAsItIs() {
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
            refreshes::incrementAndGet);

        ProfileRecord window = ProfileGson.read("""
            {"type":"window","version":2,"node":0,"sentMs":1,"windowMs":1000,"objects":[
              {"kind":"cloud","name":"best","className":"demo.Minimum","writes":760,"writesPerSec":757.7,"p99WriteUs":310.5,"migrations":3},
              {"kind":"remote","name":"worker-1","calls":40,"callsPerSec":39.9,"p99Us":420.7},
              {"kind":"array","name":"A","misses":12}]}""");
        ProfileRecord report = ProfileGson.read("{\"type\":\"report\",\"version\":2,\"runDir\":\"/tmp/r\"}");
        handler.acceptProfile(window);
        handler.acceptProfile(report);

        assertEquals(757.7, figures.get("best").writesPerSec());
        assertEquals("best", figures.ofClass("demo.Minimum").getFirst().object(), "lenses on the class find the cloud");
        assertEquals(3L, figures.get("best").migrations());
        assertEquals(420.7, figures.get("worker-1").p99WriteUs());
        assertEquals(12L, figures.get("A").misses());
        assertEquals(List.of(window, report), forwarded);
        assertSame(LiveWindow.class, forwarded.getFirst().getClass());
        assertEquals("/tmp/r", ((ProfileReport) forwarded.get(1)).runDir());
        assertEquals(1, refreshes.get(), "one lens refresh per window");
    }
}
