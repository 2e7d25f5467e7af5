package dev.cumulus.cli.launch;

import dev.cumulus.examples.heat.HeatDiffusion;
import dev.cumulus.examples.heat.LoadBalancing;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The examples of remote objects that exchange data and move (examples/…/heat), run as {@code cumulus run} runs them:
 * real node JVMs started by the launcher. After every test: no child process, no driver directory.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class MigrationExamplesSystemTest {
    @TempDir
    Path tmp;

    private final LaunchedRuns launchers = new LaunchedRuns();

    @AfterEach
    void nothingLeftBehind() throws Exception {
        launchers.noneLeftBehind();
    }

    private String run(LaunchContext ctx) {
        LaunchedRuns.Run r = launchers.run(ctx.runsRoot(tmp.resolve("runs")));
        assertEquals(0, r.result().exitCode(), r.out() + r.err());
        return r.out();
    }

    private static String location(Class<?> c) {
        try {
            return new File(c.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void heatDiffusionOnFourNodesEqualsSequentialJacobi() {
        String out = run(new LaunchContext().nodes(4).mainClass(HeatDiffusion.class.getName())
            .programArgs(List.of("64", "100")).classpath(location(HeatDiffusion.class)));

        assertTrue(out.contains("[0] heat diffusion, 64x64 plate, 100 sweeps on 4 workers"), out);
        assertTrue(out.contains("equal to sequential Jacobi bit for bit: verified"), out);
    }

    @Test
    void aSlowWorkerMovesAtASafePointMidRunAndThePlateIsStillRight() {
        // 3 nodes, the hog on node 2; steps go on until the policy has seen enough of them (120 at most)
        String out = run(new LaunchContext().nodes(3).mainClass(LoadBalancing.class.getName())
            .programArgs(List.of("384", "120", "8")).classpath(location(LoadBalancing.class)));

        assertTrue(out.contains("[2] node 2 runs a CPU hog of 3 thread(s)"), out);
        Matcher moved = Pattern.compile("\\[0] step \\d+: moved worker (\\d) from node (\\d) to node (\\d)").matcher(out);
        assertTrue(moved.find(), "a worker moved:\n" + out);
        assertTrue(!moved.group(2).equals(moved.group(3)), out);
        assertTrue(out.matches("(?s).*\\[0] step \\d+: worker \\d on node \\d is slow: its mean step .*"),
            "it said why:\n" + out);
        assertTrue(out.contains("equal to sequential Jacobi bit for bit: verified"), out);
    }
}
