package dev.cumulus.cli.launch;

import dev.cumulus.cli.CapturedOutput;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The launchers a system test ran, and what every such test checks after it: no process of the test JVM and no driver
 * directory of those runs is left. What is left is killed or deleted first, so the next test starts clean.
 */
final class LaunchedRuns implements Iterable<ClusterLauncher> {
    private final List<ClusterLauncher> launchers = new ArrayList<>();

    /** A run to its end: its result, what it printed, its launcher. */
    record Run(RunResult result, String out, String err, ClusterLauncher launcher) {
    }

    /** Runs {@code ctx} to its end, its launcher kept for {@link #noneLeftBehind()}. */
    Run run(LaunchContext ctx) {
        CapturedOutput out = new CapturedOutput();
        CapturedOutput err = new CapturedOutput();
        ClusterLauncher launcher = add(new ClusterLauncher(ctx, out.stream(), err.stream()));
        return new Run(launcher.run(), out.text(), err.text(), launcher);
    }

    /** Keeps {@code launcher} for {@link #noneLeftBehind()}. */
    ClusterLauncher add(ClusterLauncher launcher) {
        launchers.add(launcher);
        return launcher;
    }

    @Override
    public Iterator<ClusterLauncher> iterator() {
        return launchers.iterator();
    }

    /** Fails naming what is left: the processes, then the driver directories. */
    void noneLeftBehind() throws Exception {
        List<ProcessHandle> left = ChildProcesses.killAll();
        List<String> dirs = new ArrayList<>();
        for (ClusterLauncher l : launchers) {
            String dir = l.driverDirectory();
            if (dir != null && Files.exists(Path.of(dir))) {
                dirs.add(dir);
                DriverDirectories.deleteTree(Path.of(dir));
            }
        }
        assertTrue(left.isEmpty(), "processes left behind: " + left.stream()
            .map(p -> p.pid() + " " + p.info().commandLine().orElse("?")).toList());
        assertTrue(dirs.isEmpty(), "driver directories left behind: " + dirs);
    }
}
