package dev.cumulus.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code cumulus run} refuses to start a program whose cloud classes break the rules. */
@Timeout(60)
class RunPreCheckTest {
    @TempDir
    Path tmp;

    @Test
    void aViolatingCloudClassStopsTheRunBeforeAnyNodeStarts() throws Exception {
        Path src = tmp.resolve("src/demo");
        Files.createDirectories(src);
        Files.writeString(src.resolve("Counter.java"), """
            package demo;
            public class Counter implements dev.cumulus.Cloud.Root {
                static int total;
                public synchronized void add(int n) { total += n; }
                public static void main(String[] args) { }
            }
            """);
        Path classes = tmp.resolve("classes");
        Files.createDirectories(classes);
        int rc = ToolProvider.getSystemJavaCompiler().run(null, null, null, "-g", "-d", classes.toString(),
            "-cp", System.getProperty("java.class.path"), src.resolve("Counter.java").toString());
        assertEquals(0, rc);

        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--nodes", "2", "-cp", classes.toString(), "demo.Counter"},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, e);
        assertTrue(e.contains("error CUM104"), e);
        assertTrue(e.contains("nothing was started"), e);
        assertFalse(out.toString(StandardCharsets.UTF_8).contains("[0]"), "no node ran");
        assertTrue(ProcessHandle.current().descendants().findAny().isEmpty(), "no process was started");
    }

    @Test
    void anUnreadableClassFileStopsTheRunNamingTheFile() throws Exception {
        Path classes = Files.createDirectories(tmp.resolve("classes/demo"));
        Path broken = Files.write(classes.resolve("Main.class"), new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA});
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit = CumulusCli.execute(new String[] {"run", "--nodes", "2", "-cp", tmp.resolve("classes").toString(),
            "demo.Main"}, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        String e = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, exit, e);
        assertTrue(e.contains(broken.toAbsolutePath() + ": error: cannot read class file: "), e);
        assertTrue(e.contains("1 error in the program's classes; nothing was started"), e);
        assertTrue(ProcessHandle.current().descendants().findAny().isEmpty(), "no process was started");
    }
}
