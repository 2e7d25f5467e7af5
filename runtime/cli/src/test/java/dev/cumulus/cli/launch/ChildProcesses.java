package dev.cumulus.cli.launch;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** What system tests check after each test: no process of the test JVM is left (any left is killed first). */
public final class ChildProcesses {
    private ChildProcesses() {
    }

    /** Kills every descendant of this JVM, waits for them, and fails if there was any. */
    public static void noneLeftBehind() throws Exception {
        List<ProcessHandle> left = killAll();
        assertTrue(left.isEmpty(), "processes left behind: " + left);
    }

    /** Kills every descendant of this JVM and waits for them; returns those there were. */
    static List<ProcessHandle> killAll() throws Exception {
        List<ProcessHandle> left = ProcessHandle.current().descendants().toList();
        left.forEach(ProcessHandle::destroyForcibly);
        for (ProcessHandle p : left) {
            p.onExit().get(10, TimeUnit.SECONDS);
        }
        return left;
    }
}
