package dev.cumulus.lsp;

import dev.cumulus.lsp.model.ProfileFigures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The launcher's live profile lines ({@code @cumulus-profile}) reach the lenses and the editor's profile view. */
@Timeout(30)
class LiveProfileLinesTest {
    @Test
    void eachObjectOfASummaryUpdatesTheLensesAndIsForwardedAsAFlatLine() {
        List<CumulusProtocol.NodeOutput> forwarded = new CopyOnWriteArrayList<>();
        CumulusProtocol.Client client = (CumulusProtocol.Client) Proxy.newProxyInstance(
            getClass().getClassLoader(), new Class<?>[] {CumulusProtocol.Client.class}, (proxy, method, args) -> {
                if (method.getName().equals("nodeOutput")) {
                    forwarded.add((CumulusProtocol.NodeOutput) args[0]);
                }
                return null;
            });
        ProfileFigures figures = new ProfileFigures();
        AtomicInteger refreshes = new AtomicInteger();
        ExecuteCommandHandler handler = new ExecuteCommandHandler(() -> null, null, null, null, figures, () -> client,
            refreshes::incrementAndGet);

        handler.acceptLiveProfile("""
            {"node":0,"t":1,"objects":[
              {"kind":"cloud","name":"best","className":"demo.Minimum","writes":760,"writesPerSec":757.7,"p99WriteUs":310.5,"migrations":3},
              {"kind":"remote","name":"worker-1","calls":40,"callsPerSec":39.9,"p99Us":420.7},
              {"kind":"array","name":"A","misses":12}]}""");
        handler.acceptLiveProfile("not json at all");

        assertEquals(757.7, figures.get("best").writesPerSec());
        assertEquals("best", figures.ofClass("demo.Minimum").getFirst().object(), "lenses on the class find the cloud");
        assertEquals(3L, figures.get("best").migrations());
        assertEquals(420.7, figures.get("worker-1").p99WriteUs());
        assertEquals(12L, figures.get("A").misses());
        assertEquals(3, forwarded.size());
        assertTrue(forwarded.getFirst().line().contains("\"object\":\"best\""), forwarded.getFirst().line());
        assertEquals(-1, forwarded.getFirst().node());
        assertEquals(1, refreshes.get(), "one lens refresh per summary");
    }
}
