package dev.cumulus.cli.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The host Java check's shell line, run by a real {@code sh} against real and fake java executables. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HostJavaTest {
    record Ran(int code, String out, String err) {
    }

    @Test
    void aJava25OrLaterRunsTheCommand() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Ran r = sh(HostJava.checkedLine(List.of(java, "-version")));
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("version \"" + Runtime.version().feature()), r.err());
    }

    @Test
    void aMissingJavaIsNamed(@TempDir Path dir) throws Exception {
        String java = dir.resolve("no-jdk/bin/java").toString();
        Ran r = sh(HostJava.checkedLine(List.of(java, "-version")));
        assertEquals(HostJava.EXIT_NO_JAVA, r.code());
        String said = HostJava.explain(java, r.err().lines().toList());
        assertTrue(said.startsWith("there is no Java at " + java + " on it; install JDK 25"), said);
    }

    @Test
    void anOlderJavaIsNamedWithWhatItSaid(@TempDir Path dir) throws Exception {
        Path java = dir.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"17.0.13\" 2024-10-15' >&2\n",
            StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwx------"));
        Ran r = sh(HostJava.checkedLine(List.of(java.toString(), "-version")));
        assertEquals(HostJava.EXIT_NO_JAVA, r.code());
        String said = HostJava.explain(java.toString(), r.err().lines().toList());
        assertEquals(java + " there is 'openjdk version \"17.0.13\" 2024-10-15', and Cumulus needs Java 25 or later;"
            + " install JDK 25 there, or name its java in the hosts file (HOST java=/path/to/bin/java)", said);
    }

    private static Ran sh(String line) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("/bin/sh", "-c", line).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        return new Ran(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }
}
