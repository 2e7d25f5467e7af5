package dev.cumulus.cli;

import dev.cumulus.cli.launch.mains.PrintArgsMain;
import dev.cumulus.internal.launch.LaunchConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.TypeConversionException;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The command line in-process through {@link CumulusCli#execute}: help, version, usage errors, exit codes. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CumulusCliTest {
    static final String TEST_CLASSES = location(PrintArgsMain.class);

    @TempDir
    Path tmp;

    @AfterEach
    void noProcessLeft() {
        List<ProcessHandle> left = ProcessHandle.current().descendants().toList();
        left.forEach(ProcessHandle::destroyForcibly);
        assertTrue(left.isEmpty(), "processes left: " + left);
    }

    @Test
    void helpListsTheCommands() {
        CliRun r = CliRun.of("--help");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("Usage: cumulus "), r.out());
        assertTrue(r.out().contains("  run "), r.out());
        assertTrue(r.out().contains("  classpath "), r.out());
    }

    @Test
    void everySubcommandHasHelp() {
        CliRun run = CliRun.of("run", "--help");
        assertEquals(0, run.exit());
        assertTrue(run.out().contains("--nodes=N"), run.out());
        assertTrue(run.out().contains("the worst node is the"), run.out());
        assertEquals(0, CliRun.of("classpath", "--help").exit());
        assertEquals(0, CliRun.of("help", "run").exit());
    }

    @Test
    void everyHelpTextFormatsWithoutPicocliWarnings() {
        // a lone '%' in a description makes picocli warn on stderr and print the text unformatted
        PrintStream before = System.err;
        ByteArrayOutputStream warnings = new ByteArrayOutputStream();
        System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
        try {
            CommandLine root = new CommandLine(new CumulusCli());
            root.getUsageMessage();
            root.getSubcommands().values().forEach(CommandLine::getUsageMessage);
        } finally {
            System.setErr(before);
        }
        assertEquals("", warnings.toString(StandardCharsets.UTF_8));
    }

    @Test
    void helpParagraphsAreWholeSentences() {
        // picocli prints each description element as a paragraph, and the first one alone in 'cumulus --help'
        CommandLine root = new CommandLine(new CumulusCli());
        for (CommandLine c : root.getSubcommands().values()) {
            String name = c.getCommandName();
            if (name.equals("help")) {
                continue;                   // picocli's own
            }
            String[] description = c.getCommandSpec().usageMessage().description();
            assertTrue(description.length > 0 && description[0].endsWith("."), name + ": " + description[0]);
            for (String[] part : List.of(description, c.getCommandSpec().usageMessage().footer())) {
                for (int i = 0; i < part.length; i++) {
                    String p = part[i];
                    boolean listFollows = p.endsWith(":") && i + 1 < part.length && part[i + 1].startsWith("  ");
                    assertTrue(p.isEmpty() || p.startsWith("  ") || p.endsWith(".") || listFollows,
                        name + ": a paragraph cut mid-sentence: '" + p + "'");
                }
            }
        }
        CliRun top = CliRun.of("--help");
        assertTrue(top.out().contains("classpath  Print the classpath a program needs to compile against Cumulus."),
            top.out());
        assertTrue(top.out().contains("profile    Report a profiled run (cumulus run --profile) from its node-<i>."),
            top.out());
        assertTrue(CliRun.of("classpath", "--help").out().contains("JDK 25"), "says which javac");
    }

    @Test
    void aNodeCountThatIsNoNumberSaysWhatIsExpected() {
        CliRun r = CliRun.of("run", "--nodes", "abc", PrintArgsMain.class.getName());
        assertEquals(2, r.exit());
        assertEquals("cumulus run: Invalid value for option '--nodes': 'abc' is not a whole number; give digits only, "
            + "e.g. 4 (see 'cumulus run --help')", r.err().strip());
    }

    @Test
    void versionNamesTheToolkitAndTheJdk() {
        CliRun r = CliRun.of("--version");
        assertEquals(0, r.exit());
        assertTrue(r.out().startsWith("cumulus "), r.out());
        assertTrue(r.out().contains("Java " + Runtime.version()), r.out());
    }

    @Test
    void noCommandIsAUsageError() {
        CliRun r = CliRun.of();
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("Usage: cumulus"), r.err());
    }

    @Test
    void aBadNodeCountIsOneLineAndExitTwo() {
        CliRun r = CliRun.of("run", "--nodes", "0", "-cp", TEST_CLASSES, PrintArgsMain.class.getName());
        assertEquals(2, r.exit());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().startsWith("cumulus run: --nodes 0 is not a node count"), r.err());
        assertTrue(r.err().contains("1..64"), r.err());

        CliRun huge = CliRun.of("run", "--nodes", "99999999999999999999", PrintArgsMain.class.getName());
        assertEquals(2, huge.exit());
        assertEquals(1, huge.err().lines().count(), huge.err());
    }

    @Test
    void missingOptionsAndBadDurationsAreUsageErrors() {
        CliRun r = CliRun.of("run", PrintArgsMain.class.getName());
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("cumulus run: missing --nodes N"), r.err());

        CliRun d = CliRun.of("run", "--nodes", "2", "--timeout", "5x", PrintArgsMain.class.getName());
        assertEquals(2, d.exit());
        assertTrue(d.err().contains("'5x' is not a duration; use a number with a unit: 500ms, 30s, 5m or 1h"), d.err());

        CliRun h = CliRun.of("run", "--nodes", "2", "--hosts", "hosts.txt", PrintArgsMain.class.getName());
        assertEquals(2, h.exit());
        assertTrue(h.err().startsWith("cumulus run: --hosts hosts.txt: cannot read it"), h.err());

        CliRun s = CliRun.of("run", "--nodes", "2", "--ssh", "-p 2222", PrintArgsMain.class.getName());
        assertEquals(2, s.exit());
        assertTrue(s.err().startsWith("cumulus run: --ssh applies only with --hosts FILE"), s.err());
    }

    @Test
    void badAgentOptionsAreAUsageErrorNamingTheValidOnes() {
        CliRun r = CliRun.of("run", "--nodes", "2", "--agent-options", "verbose=yes", "-cp", TEST_CLASSES,
            PrintArgsMain.class.getName());
        assertEquals(2, r.exit());
        assertEquals("cumulus run: --agent-options: bad Cumulus agent options 'verbose=yes': 'verbose' takes no value "
            + "(give it as 'verbose', leave it out to turn it off); the options are verbose, debug, dumpDir=DIR, "
            + "separated by commas (e.g. --agent-options verbose,dumpDir=/tmp/woven)", r.err().strip());

        CliRun attach = CliRun.of("run", "--attach", "c1", "--agent-options", "verbose", PrintArgsMain.class.getName());
        assertEquals(2, attach.exit());
        assertTrue(attach.err().contains("--agent-options do not apply to it"), attach.err());
    }

    @Test
    void anUnknownMainClassIsOneLineWithoutStackTraceUnlessDebug() {
        CliRun r = CliRun.of("run", "--nodes", "2", "-cp", TEST_CLASSES, "com.example.Missing");
        assertEquals(2, r.exit());
        assertEquals("cumulus run: no class com.example.Missing on the classpath " + TEST_CLASSES, r.err().strip());

        CliRun debug = CliRun.of("--stack-trace", "run", "--nodes", "2", "-cp", TEST_CLASSES, "com.example.Missing");
        assertEquals(2, debug.exit());
        assertTrue(debug.err().contains("\tat dev.cumulus.cli.launch."), debug.err());
    }

    @Test
    void everythingAfterMainGoesToTheProgram() throws Exception {
        CliRun r = CliRun.of("run", "--nodes", "1", "-cp", TEST_CLASSES, "--jvm-arg", "-XX:TieredStopAtLevel=1",
            "--run-dir", tmp.resolve("run").toString(), PrintArgsMain.class.getName(), "--nodes", "x", "--help");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("[0] node 0 of 1 args [--nodes, x, --help]"), r.out());
        assertTrue(r.err().contains("directory: " + tmp.resolve("run")), r.err());
        Properties launch = new Properties();
        try (Reader in = Files.newBufferedReader(tmp.resolve("run").resolve("launch.properties"))) {
            launch.load(in);
        }
        String driverDir = launch.getProperty(LaunchConfig.AERON_DIR);
        assertTrue(driverDir != null, launch.toString());
        assertFalse(Files.exists(Path.of(driverDir)), "driver directory deleted");
    }

    @Test
    void durationsNeedAUnit() {
        assertEquals(Duration.ofMillis(500), DurationConverter.parse("500ms"));
        assertEquals(Duration.ofSeconds(30), DurationConverter.parse("30s"));
        assertEquals(Duration.ofMinutes(5), DurationConverter.parse("5m"));
        assertEquals(Duration.ofHours(1), DurationConverter.parse("1H"));
        assertThrows(TypeConversionException.class, () -> DurationConverter.parse("30"));
        assertThrows(TypeConversionException.class, () -> DurationConverter.parse("-1s"));
    }

    @Test
    void classpathPrintsTheRuntimeOnOneLine() {
        CliRun r = CliRun.of("classpath");
        assertEquals(0, r.exit());
        assertEquals(1, r.out().lines().count(), r.out());
        String[] entries = r.out().strip().split(File.pathSeparator);
        for (String e : entries) {
            assertTrue(Path.of(e).isAbsolute(), e);
        }
        assertTrue(r.out().contains("aeron-client"), r.out());
        assertTrue(r.out().contains("aeron-driver"), r.out());
        assertTrue(r.out().contains("agrona"), r.out());
        assertFalse(r.out().contains("picocli"), "the runtime classpath is what programs need, not the CLI's");
    }

    static String location(Class<?> c) {
        try {
            return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
