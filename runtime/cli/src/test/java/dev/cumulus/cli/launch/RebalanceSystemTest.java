package dev.cumulus.cli.launch;

import dev.cumulus.cli.CumulusCli;
import dev.cumulus.cli.launch.mains.FollowCallsMain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code cumulus run --rebalance}: a remote object moves to the node that makes its calls, in real node processes. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RebalanceSystemTest {
    @TempDir
    Path tmp;

    @AfterEach
    void nothingLeftBehind() throws Exception {
        ChildProcesses.noneLeftBehind();
    }

    @Test
    void anObjectMovesToTheNodeThatCallsItUnderRebalance() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String classes = new File(FollowCallsMain.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .getPath();
        int exit = CumulusCli.execute(new String[] {"run", "--nodes", "2", "--rebalance=200ms", "--timeout", "90s",
            "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp", classes, FollowCallsMain.class.getName()},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, o + err.toString(StandardCharsets.UTF_8));
        Matcher m = Pattern.compile("\\[1\\] moved to node 1; calls (\\d+), total (\\d+)").matcher(o);
        assertTrue(m.find(), o);
        assertEquals(m.group(1), m.group(2), "every call counted once across the move");
    }

    @Test
    void aWindowBelowOneMillisecondIsRefused() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--nodes", "2", "--rebalance=0s", "-cp", ".", "Main"},
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, exit);
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("--rebalance needs a window"), err.toString());
    }
}
