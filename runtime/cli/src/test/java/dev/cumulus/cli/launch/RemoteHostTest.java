package dev.cumulus.cli.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the launcher makes of a host agent's last words. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RemoteHostTest {
    @Test
    void aJavaWithoutTheRuntimeAtTheLaunchersPathsIsRecognised(@TempDir Path empty) throws Exception {
        // what this JDK's java says when the agent's classpath does not exist on the host
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
            empty.resolve("no-cumulus").toString(), HostAgent.class.getName()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertTrue(RemoteHost.lacksRuntime(lines), lines.toString());
        assertFalse(RemoteHost.lacksRuntime(List.of("cumulus: UDP port 40000 on 10.0.0.2 is in use")));
    }
}
