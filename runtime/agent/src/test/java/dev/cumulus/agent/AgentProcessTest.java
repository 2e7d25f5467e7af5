package dev.cumulus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.agent.mains.AttachMain;
import dev.cumulus.agent.mains.JavaagentMain;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * System tests: real JVMs with default verification, the agent started with {@code -javaagent:} (a jar built from
 * the agent's classes with the agent manifest) or attached by {@code AgentLoader} (helper JVM, or in-process with
 * {@code -Djdk.attach.allowAttachSelf=true}).
 */
@Timeout(120)
class AgentProcessTest {
    @TempDir
    static Path tmp;
    static Path classes;
    static Path agentJar;

    record Run(int code, String out, String err) {
    }

    @BeforeAll
    static void prepare() throws IOException {
        classes = Files.createDirectories(tmp.resolve("classes"));
        TestClasses.compile(classes);
        agentJar = TestClasses.agentJar(tmp);
    }

    @AfterEach
    void noProcessLeft() {
        List<ProcessHandle> left = ProcessHandle.current().descendants().toList();
        left.forEach(ProcessHandle::destroyForcibly);
        assertTrue(left.isEmpty(), "processes left: " + left);
    }

    static Run java(List<String> jvmArgs, Class<?> main) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(jvmArgs);
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path") + File.pathSeparator + classes);
        cmd.add(main.getName());
        Path out = tmp.resolve("out.txt");
        Path err = tmp.resolve("err.txt");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            throw new AssertionError("child JVM did not finish: " + cmd);
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void javaagentWeavesCloudClassesAndRefusesViolatingOnes() throws Exception {
        Path dump = tmp.resolve("dump");
        Run r = java(List.of("-javaagent:" + agentJar + "=verbose,dumpDir=" + dump), JavaagentMain.class);
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("agentInstalled=true"), r.out());
        assertTrue(r.out().contains("beforeWrite addInt(I)I [5]\naddInt=5\nreadInt=5\n"), r.out());
        assertTrue(r.out().contains("beforeWrite put(I)V [3]\nnotify\n"), r.out());
        assertTrue(r.out().contains("refused: dev.cumulus.CumulusException: class weave.Refused violates CUM104"),
                r.out());
        assertTrue(r.out().contains("refused: dev.cumulus.CumulusException: class weave.Peeker violates CUM106"),
                r.out());
        assertTrue(r.err().contains("Peeker.java:9: error CUM106 [weave.Peeker.cheat]"), r.err());
        assertTrue(r.out().contains("refusals=2"), r.out());
        assertTrue(r.err().contains("Refused.java:7: error CUM104 [weave.Refused.counter]"), r.err());
        assertTrue(r.err().contains("cumulus-agent: refused weave.Refused (1 error)"), r.err());
        assertTrue(!r.err().contains("cannot weave") && !r.err().contains("VerifyError"), r.err());
        assertTrue(Files.isRegularFile(dump.resolve("weave/Account.class")), "dumpDir holds the woven classes");
        assertTrue(r.err().contains("cumulus-agent: wove weave.Account\n"), "verbose names each woven class: " + r.err());
    }

    @Test
    void withoutOptionsTheAgentPrintsOnlyWhatIsWrong() throws Exception {
        Run r = java(List.of("-javaagent:" + agentJar), JavaagentMain.class);
        assertEquals(0, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("addInt=5"), r.out());
        assertTrue(r.err().contains("cumulus-agent: refused weave.Refused (1 error)"), r.err());
        assertTrue(!r.err().contains("cumulus-agent: wove"), "no verbose lines: " + r.err());
    }

    @Test
    void badOptionsStopTheJvmBeforeMainWithTheValidOnes() throws Exception {
        Run r = java(List.of("-javaagent:" + agentJar + "=verbose,dumpdir=/tmp/x"), JavaagentMain.class);
        assertEquals(CumulusAgent.EXIT_BAD_OPTIONS, r.code(), r.out() + r.err());
        assertEquals("", r.out(), "main did not run");
        assertEquals("cumulus-agent: bad Cumulus agent options 'verbose,dumpdir=/tmp/x': 'dumpdir' is not an option; "
                + "the options are verbose, debug, dumpDir=DIR, separated by commas "
                + "(e.g. -javaagent:cumulus-agent.jar=verbose,dumpDir=/tmp/woven)\n", r.err());
    }

    @Test
    void agentLoaderAttachesThroughAHelperJvmAndRetransformsLoadedClasses() throws Exception {
        Run r = java(List.of("-XX:+EnableDynamicAgentLoading"), AttachMain.class);
        assertAttached(r);
        System.out.println("[AgentProcessTest] attach through a helper JVM: " + attachLine(r));
    }

    @Test
    void agentLoaderAttachesInProcessWhenSelfAttachIsAllowed() throws Exception {
        Run r = java(List.of("-XX:+EnableDynamicAgentLoading", "-Djdk.attach.allowAttachSelf=true"),
                AttachMain.class);
        assertAttached(r);
        System.out.println("[AgentProcessTest] attach in process: " + attachLine(r));
    }

    @Test
    void agentLoaderSaysWhatToDoWhenAttachIsImpossible() throws Exception {
        Run r = java(List.of("-XX:+DisableAttachMechanism"), AttachMain.class);
        assertEquals(1, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("dev.cumulus.CumulusException: cannot attach the Cumulus agent to this JVM"),
                r.err());
        assertTrue(r.err().contains("start the JVM with -javaagent:"), r.err());
    }

    private static void assertAttached(Run r) {
        assertEquals(0, r.code(), r.out() + r.err());
        String out = r.out();
        assertTrue(out.startsWith("before attach addInt=1\n"), "not woven before the attach: " + out);
        assertTrue(out.contains("attached agentInstalled=true"), out);
        assertTrue(out.contains("beforeWrite addInt(I)I [2]\nafter attach addInt=3\n"),
                "the loaded class was retransformed, the instance keeps its state: " + out);
        assertTrue(out.contains("beforeWrite inc()I []\nlate inc=1\n"), "a class loaded later is woven: " + out);
        assertTrue(r.err().contains("class weave.Refused violates CUM104"), r.err());
        assertTrue(r.err().contains("loaded before the agent attached"), r.err());
        assertTrue(!r.err().contains("cannot weave") && !r.err().contains("VerifyError"), r.err());
    }

    private static String attachLine(Run r) {
        return r.out().lines().filter(l -> l.startsWith("attached") || l.startsWith("second")).toList().toString();
    }
}
