package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;
import dev.cumulus.cli.launch.mains.FailingNodeMain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launcher names the node where a failure began — not the healthy node that detected it and stopped first — and
 * returns that node's exit code, the same every time. Real node JVMs ({@link FailingNodeMain}, 3 nodes), one run per
 * failure kind; {@code ./build failures [RUNS]} repeats each kind RUNS times (default 20), handing the count over in
 * {@value #RUNS_VARIABLE}. After every test: no child process, no driver directory.
 */
@Timeout(value = 30, unit = TimeUnit.MINUTES) // each run also has the launcher's own 60 s timeout
class FailureOriginSystemTest {
    /** How many times each failure kind runs; unset: once (what the suite does). */
    static final String RUNS_VARIABLE = "CUMULUS_FAILURE_RUNS";
    static final int RUNS = runs(System.getenv(RUNS_VARIABLE));
    static final int NODES = 3;

    /** A way a node fails, which node, and what the run must end with. */
    enum Kind {
        EXIT("exit", 1, 3),
        THROW("throw", 2, 1),
        HANG("hang", 2, RunResult.EXIT_NODE_HUNG),
        OOM("oom", 1, 1),
        NON_TRANSFERABLE("non-transferable", 0, 1);

        final String arg;
        final int node;
        final int exitCode;

        Kind(String arg, int node, int exitCode) {
            this.arg = arg;
            this.node = node;
            this.exitCode = exitCode;
        }
    }

    @TempDir
    Path tmp;

    static int runs(String value) {
        return CountVariable.read(RUNS_VARIABLE, value, 1, "runs", "./build failures 20");
    }

    private final LaunchedRuns launchers = new LaunchedRuns();

    @AfterEach
    void nothingLeftBehind() throws Exception {
        launchers.noneLeftBehind();
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void theLauncherNamesTheNodeWhereTheFailureBeganEveryTime(Kind kind) {
        for (int i = 0; i < RUNS; i++) {
            CapturedOutput out = new CapturedOutput();
            CapturedOutput err = new CapturedOutput();
            List<String> jvm = new ArrayList<>(ClusterLauncherSystemTest.FAST_JVM);
            if (kind == Kind.OOM) {
                jvm.add("-Xmx48m");
            }
            LaunchContext ctx = new LaunchContext().nodes(NODES).mainClass(FailingNodeMain.class.getName())
                .programArgs(List.of(kind.arg, Integer.toString(kind.node)))
                .classpath(ClusterLauncherSystemTest.TEST_CLASSES).jvmArgs(jvm)
                .heartbeatTimeout(Duration.ofSeconds(2)).grace(Duration.ofSeconds(2)).timeout(Duration.ofSeconds(60))
                .runsRoot(tmp.resolve("runs"));
            ClusterLauncher launcher = new ClusterLauncher(ctx, out.stream(), err.stream());
            launchers.add(launcher);
            RunResult r = launcher.run();
            String all = "run " + (i + 1) + " of " + RUNS + "\n" + out.text() + err.text();

            assertEquals(RunResult.Ending.NODE_FAILED, r.ending(), all);
            assertEquals(kind.node, r.failedNode(), all);
            assertEquals(kind.exitCode, r.exitCode(), all);
            assertFalse(out.text().contains("passed barrier 2"), "nobody passes a barrier node " + kind.node
                + " never reached:\n" + all);
            assertTrue(err.text().contains("cumulus: node " + kind.node + (kind == Kind.HANG
                ? " failed and did not end on its own" : " exited with code " + kind.exitCode)), all);
            assertFalse(err.text().contains("called close()"), "nobody called close() early:\n" + all);
            if (kind == Kind.EXIT) {
                assertTrue(err.text().contains("its process is exiting while its program runs (System.exit or a "
                    + "signal)"), "the peers learn how node 1 left:\n" + all);
            }
            if (kind == Kind.HANG) {
                assertTrue(err.text().contains("node 2 has not been heard from for"), all);
            }
        }
    }
}
