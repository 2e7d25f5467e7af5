package dev.cumulus.cli.launch;

import dev.cumulus.cli.CumulusCli;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java-memory-model litmus tests of src/test/singlevm/litmus (message passing through a volatile, a monitor,
 * wait/notify, array elements, a large array, statics, and objects written after their publication; store buffering
 * and IRIW with volatiles; final field publication; {@code Thread.start}/{@code join}
 * edges) as one plain program under {@code cumulus run --single-vm} on 2, 3 and 4 real node JVMs: no outcome the JMM
 * forbids, every test's rounds all played, and each test's actors on different nodes where there are enough nodes.
 * {@code ./build litmus [ROUNDS]} runs more rounds (default here {@value #DEFAULT_ROUNDS}), handing the count over in
 * {@value #ROUNDS_VARIABLE}.
 */
@Timeout(value = 60, unit = TimeUnit.MINUTES) // each run also has the launcher's own timeout
class SingleVmLitmusSystemTest {
    static final String ROUNDS_VARIABLE = "CUMULUS_LITMUS_ROUNDS";
    static final int DEFAULT_ROUNDS = 200;
    static final int ROUNDS = CountVariable.read(ROUNDS_VARIABLE, System.getenv(ROUNDS_VARIABLE),
        DEFAULT_ROUNDS, "rounds", "./build litmus 5000");
    /** Each actor test's name and how many actors it has (start-join has none: main and one thread a round). */
    static final Map<String, Integer> ACTORS = Map.ofEntries(Map.entry("mp-volatile", 2), Map.entry("mp-monitor", 2),
        Map.entry("mp-wait-notify", 2), Map.entry("mp-arrays", 2), Map.entry("mp-large-array", 2),
        Map.entry("mp-published", 2), Map.entry("mp-statics", 2), Map.entry("sb-volatile", 2),
        Map.entry("iriw-volatile", 4), Map.entry("final-fields", 2));

    @TempDir
    Path tmp;

    @AfterEach
    void nothingLeftBehind() throws Exception {
        ChildProcesses.noneLeftBehind();
    }

    @ParameterizedTest(name = "{0} nodes")
    @ValueSource(ints = {2, 3, 4})
    void noOutcomeTheJavaMemoryModelForbidsAppears(int nodes) throws Exception {
        Path classes = SingleVmSystemTest.compile(tmp);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long timeoutSeconds = 120 + ROUNDS / 5L;
        int exit = CumulusCli.execute(new String[] {"run", "--single-vm", "--nodes", String.valueOf(nodes),
            "--timeout", timeoutSeconds + "s", "--no-check", "--run-dir", tmp.resolve("run").toString(), "-cp",
            classes.toString(), "litmus.Litmus", String.valueOf(ROUNDS)},
            new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        String o = out.toString(StandardCharsets.UTF_8);
        String all = o + err.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, all);
        assertTrue(!o.contains("FORBIDDEN"), all);
        assertTrue(o.contains("[0] litmus: every test passed, no forbidden outcome"), all);
        for (String test : ACTORS.keySet()) {
            assertTrue(o.contains("[0] litmus " + test + ": " + ROUNDS + " rounds,"),
                test + " did not report:\n" + all);
        }
        assertTrue(o.contains("[0] litmus start-join: " + Math.max(1, ROUNDS / 10) + " rounds, saw every write "
            + Math.max(1, ROUNDS / 10) + ", forbidden 0"), all);
        Map<String, Set<String>> nodesOf = new TreeMap<>();
        Matcher m = Pattern.compile("\\[(\\d)\\] litmus ([a-z-]+) actor \\d").matcher(o);
        while (m.find()) {
            nodesOf.computeIfAbsent(m.group(2), k -> new TreeSet<>()).add(m.group(1));
        }
        for (Map.Entry<String, Integer> test : ACTORS.entrySet()) {
            int distinct = Math.min(test.getValue(), nodes);
            assertEquals(distinct, nodesOf.getOrDefault(test.getKey(), Set.of()).size(),
                test.getKey() + "'s actors run on " + nodesOf.get(test.getKey()) + ":\n" + all);
        }
        for (String line : List.of(o.split("\n"))) {
            if (line.contains(" litmus ") && line.contains(" rounds,")) {
                System.out.println(nodes + " nodes: " + line);
            }
        }
    }
}
