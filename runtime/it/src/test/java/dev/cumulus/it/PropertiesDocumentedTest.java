package dev.cumulus.it;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * No {@code -D} switch or {@code CUMULUS_*} variable that is not documented: every system property and environment
 * variable a main class of the build reads is the JDK's or the OS's, a user setting documented in docs/CLI.md or
 * bench/README.md, or a launcher-internal property in ARCHITECTURE.md's table ("Launcher-internal properties").
 */
@Timeout(60)
class PropertiesDocumentedTest {
    /** Set by the JDK, the OS, ssh or Slurm: facts about where the program runs, no Cumulus settings. */
    private static final List<String> PLATFORM_PREFIXES =
        List.of("java.", "jdk.", "os.", "user.", "file.", "line.", "native.", "SLURM_");
    private static final Set<String> PLATFORM_VARIABLES =
        Set.of("PATH", "SSH_CONNECTION", "XDG_CACHE_HOME", "XDG_CONFIG_HOME");

    /**
     * The classes that take all system properties or the whole environment, and the documented names that what they
     * hand them to reads.
     */
    private static final Map<String, String> WHOLESALE = Map.ofEntries(
        Map.entry("dev.cumulus.LocalCluster", "NodeSettings.of: the node settings"),
        Map.entry("dev.cumulus.internal.launch.NodeRuntime", "LaunchConfig.fromProperties, NodeSettings.of"),
        Map.entry("dev.cumulus.internal.singlevm.DumpSignal", "LaunchConfig.fromProperties"),
        Map.entry("dev.cumulus.internal.singlevm.LimitStop", "LaunchConfig.isPresent, LaunchConfig.fromProperties"),
        Map.entry("dev.cumulus.internal.singlevm.ProgramExit", "LaunchConfig.fromProperties"),
        Map.entry("dev.cumulus.internal.service.ClientCluster",
            "NodeSettings.of; ClientCredential.forAttach (CUMULUS_CREDENTIAL)"),
        Map.entry("dev.cumulus.internal.service.ClientProfiles", "LaunchConfig.fromProperties"),
        Map.entry("dev.cumulus.internal.service.StandingClusterFile",
            "configDir (CUMULUS_CONFIG_DIR, XDG_CONFIG_HOME)"),
        Map.entry("dev.cumulus.cli.standing.ClusterRegistry", "StandingClusterFile.configDir"),
        Map.entry("dev.cumulus.cli.NodeCommand", "SlurmNode, SlurmStep (SLURM_*, CUMULUS_SECRET)"),
        Map.entry("dev.cumulus.cli.RunCommand", "LaunchContext: SlurmAllocation (SLURM_*)"),
        Map.entry("dev.cumulus.cli.standing.StandingKeeper", "LaunchContext: SlurmAllocation (SLURM_*)"),
        Map.entry("dev.cumulus.bench.replication.Netns", "PATH"),
        Map.entry("dev.cumulus.bench.Workload", "bench.* (launcher-internal)"),
        Map.entry("dev.cumulus.bench.replication.Settings", "bench.* (launcher-internal)"),
        Map.entry("dev.cumulus.bench.pastset.Scenarios", "bench.* (launcher-internal)"),
        Map.entry("dev.cumulus.bench.hostile.HostileNode", "LaunchConfig.fromProperties"));

    private static final Pattern MODULE = Pattern.compile("<module>([^<]+)</module>");
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][\\w.]*\\w(\\.\\*)?");

    private static Path root;
    private static PropertyReads reads;

    @BeforeAll
    static void scan() throws IOException {
        root = repoRoot();
        List<String> modules = new ArrayList<>();
        Matcher m = MODULE.matcher(Files.readString(root.resolve("pom.xml")));
        while (m.find()) {
            modules.add(m.group(1));
        }
        reads = PropertyReads.scan(root, modules);
    }

    @Test
    void everyPropertyAndVariableReadIsDocumented() throws IOException {
        Set<String> user = codeNames(Files.readString(root.resolve("docs/CLI.md")));
        user.addAll(codeNames(Files.readString(root.resolve("bench/README.md"))));
        Set<String> internal = launcherInternal();
        Set<String> undocumented = new TreeSet<>();
        for (PropertyReads.Read r : reads.reads) {
            if (r.name() != null && !platform(r.name()) && !user.contains(r.name()) && !covers(internal, r.name())) {
                undocumented.add(r.name() + " (" + r.where() + ")");
            }
        }
        assertEquals(Set.of(), undocumented, "properties or variables that main code reads but no document names: "
            + "document a user setting in docs/CLI.md (or bench/README.md), or a property a launcher sets on the JVMs "
            + "it starts in ARCHITECTURE.md's table \"Launcher-internal properties\"");
    }

    @Test
    void everyNameReadIsAConstant() {
        List<String> dynamic = reads.reads.stream().filter(r -> r.name() == null)
            .map(r -> r.argument() + " (" + r.where() + ")").toList();
        assertEquals(List.of(), dynamic, "properties read by a name this test cannot follow: name each property in a "
            + "static final String constant (literals and constants joined by +)");
    }

    @Test
    void onlyKnownClassesTakeAllPropertiesOrTheWholeEnvironment() {
        Set<String> unknown = new TreeSet<>(reads.wholesale);
        unknown.removeAll(WHOLESALE.keySet());
        assertEquals(Set.of(), unknown, "classes that read System.getProperties() or System.getenv() whole: read "
            + "the documented names one by one, or add the class to WHOLESALE with what it hands them to");
        Set<String> gone = new TreeSet<>(WHOLESALE.keySet());
        gone.removeAll(reads.wholesale);
        assertEquals(Set.of(), gone, "WHOLESALE names classes that no longer read them whole: remove them");
    }

    @Test
    void theScanFindsTheKnownReads() {
        Set<String> names = reads.reads.stream().map(PropertyReads.Read::name).filter(Objects::nonNull)
            .collect(Collectors.toCollection(TreeSet::new));
        for (String known : List.of("cumulus.agent.jar", "cumulus.attach", "cumulus.attach.profile",
                "cumulus.launcher.pid", "cumulus.node.id", "cumulus.config.dir", "CUMULUS_SECRET", "java.home")) {
            assertTrue(names.contains(known), known + " not found; the scan found " + names);
        }
    }

    @Test
    void commentsAreNotRead() {
        String code = "a(\"//x\"); // System.getProperty(\"p\")\n/* System.getenv(\"E\") */ b('\"');";
        assertEquals("a(\"//x\"); \n b('\"');", PropertyReads.withoutComments(code));
    }

    /** The names of ARCHITECTURE.md's launcher-internal table; {@code bench.*} stands for every {@code bench.} name. */
    private static Set<String> launcherInternal() throws IOException {
        String doc = Files.readString(root.resolve("ARCHITECTURE.md"));
        int start = doc.indexOf("## Launcher-internal properties");
        assertTrue(start >= 0, "ARCHITECTURE.md has no section \"Launcher-internal properties\"");
        int end = doc.indexOf("\n## ", start + 1);
        Set<String> names = new HashSet<>();
        for (String line : doc.substring(start, end < 0 ? doc.length() : end).split("\n")) {
            if (line.startsWith("| `")) {
                names.addAll(codeNames(line.split("\\|")[1]));
            }
        }
        return names;
    }

    private static boolean covers(Set<String> internal, String name) {
        return internal.contains(name) || internal.stream()
            .anyMatch(n -> n.endsWith(".*") && name.startsWith(n.substring(0, n.length() - 1)));
    }

    /** The names in a document's code spans ({@code `-Dx.y=v`}, {@code `$X_Y`}, {@code `x.y`}). */
    private static Set<String> codeNames(String markdown) {
        Set<String> names = new HashSet<>();
        Matcher span = CODE_SPAN.matcher(markdown);
        while (span.find()) {
            Matcher name = NAME.matcher(span.group(1).replace("-D", " "));
            while (name.find()) {
                names.add(name.group());
            }
        }
        return names;
    }

    private static boolean platform(String name) {
        return PLATFORM_VARIABLES.contains(name) || PLATFORM_PREFIXES.stream().anyMatch(name::startsWith);
    }

    private static Path repoRoot() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.isRegularFile(d.resolve("ARCHITECTURE.md")) && Files.isRegularFile(d.resolve("pom.xml"))) {
                return d;
            }
        }
        throw new IllegalStateException("no ARCHITECTURE.md above " + Path.of("").toAbsolutePath());
    }
}
