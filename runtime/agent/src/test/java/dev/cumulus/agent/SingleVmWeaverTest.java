package dev.cumulus.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.Cluster;
import dev.cumulus.LocalCluster;
import dev.cumulus.internal.cloud.CloudHooks;
import dev.cumulus.internal.cluster.NodeCluster;
import dev.cumulus.internal.singlevm.ObjectSpace;
import dev.cumulus.internal.singlevm.SharedHeap;
import dev.cumulus.internal.singlevm.SharedObject;
import java.lang.classfile.ClassFile;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The single-VM weaving on real classes (src/test/singlevm): compiled with javac, woven by {@link SingleVmTransformer}
 * in a test class loader per node, run on an in-process cluster and compared with the same classes run plain.
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
class SingleVmWeaverTest {
    static final Path SOURCES = Path.of(System.getProperty("basedir", "."), "src", "test", "singlevm");

    @TempDir
    static Path classes;
    static TestClasses.Captured agentErr = new TestClasses.Captured();

    @BeforeAll
    static void compile() throws Exception {
        // The weaving here is the test loaders' own: keep LocalCluster from attaching the cloud agent to this JVM,
        // whose transformer would then also see every class later tests define (WeaverTest's refused class twice).
        CloudHooks.markAgentInstalled();
        TestClasses.compile(SOURCES, classes);
    }

    @Test
    void dumpDirGetsEveryWovenClassAndVerboseNamesIt(@TempDir Path dump) throws Exception {
        TestClasses.Captured err = new TestClasses.Captured();
        SingleVmTransformer t = new SingleVmTransformer(err.stream, AgentSettings.parse("verbose,dumpDir=" + dump));
        byte[] plain = Files.readAllBytes(classes.resolve("sv/Program.class"));
        byte[] woven = t.weave(SingleVmWeaverTest.class.getClassLoader(), "sv/Program", plain);
        assertNotNull(woven, "sv.Program is woven");
        assertArrayEquals(woven, Files.readAllBytes(dump.resolve("sv/Program.class")));
        assertTrue(ClassFile.of().parse(woven).fields().stream()
            .anyMatch(f -> f.fieldName().stringValue().startsWith("$cumulus$")), "the dump is the woven class");
        assertTrue(err.text().contains("cumulus-agent: wove sv.Program"), err.text());
    }

    @Test
    void wovenProgramOnOneNodeGivesThePlainResult() throws Exception {
        String plain;
        try (URLClassLoader l = new URLClassLoader(new URL[] {classes.toUri().toURL()},
                SingleVmWeaverTest.class.getClassLoader())) {
            plain = (String) call(l, "sv.Program", "run");
        }
        String[] woven = new String[1];
        LocalCluster.run(1, cluster -> {
            try (Node node = new Node(cluster)) {
                woven[0] = (String) node.call("sv.Program", "run");
            }
        });
        assertEquals(plain, woven[0]);
    }

    @Test
    void wovenClassesCarryTheStateAndTheMarker() throws Exception {
        LocalCluster.run(1, cluster -> {
            try (Node node = new Node(cluster)) {
                Class<?> box = node.loader.loadClass("sv.Box");
                Class<?> tree = node.loader.loadClass("sv.Tree");
                assertTrue(SharedObject.class.isAssignableFrom(box));
                assertEquals(box, tree.getField("$cumulus$state").getDeclaringClass(), "one state per object");
                assertTrue(Modifier.isStatic(tree.getDeclaredField("$cumulus$statics").getModifiers()));
                assertFalse(Modifier.isFinal(box.getDeclaredField("fixed").getModifiers()), "copies are filled");
                assertTrue(Modifier.isFinal(tree.getDeclaredField("KIND").getModifiers()), "constants stay");
                assertFalse(Modifier.isSynchronized(box.getMethod("add", int.class).getModifiers()));
            }
        });
    }

    @Test
    void nativeMethodsAreRefusedWithAReason() throws Exception {
        LocalCluster.run(1, cluster -> {
            try (Node node = new Node(cluster)) {
                Throwable t = assertThrows(Throwable.class,
                    () -> Class.forName("sv.Native", true, node.loader));
                String all = t + " " + t.getCause();
                assertTrue(all.contains("native method peek"), all);
            }
        });
    }

    /** Two nodes, two threads each: a counter under a monitor, volatile message passing, a wait/notify hand-off. */
    @Test
    void twoNodesShareObjectsStaticsMonitorsVolatilesAndWaitNotify() {
        Map<Integer, List<String>> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            try (Node node = new Node(cluster)) {
                int me = cluster.nodeId();
                if (me == 0) {
                    node.call("sv.Pair", "setup");
                }
                cluster.barrier();
                List<Thread> threads = new ArrayList<>();
                Throwable[] failed = new Throwable[1];
                for (int t = 0; t < 2; t++) {
                    threads.add(Thread.ofPlatform().start(() -> {
                        try {
                            node.call("sv.Pair", "count", 200);
                        } catch (Throwable e) {
                            failed[0] = e;
                        }
                    }));
                }
                for (Thread t : threads) {
                    t.join();
                }
                if (failed[0] != null) {
                    throw new AssertionError("a counting thread failed", failed[0]);
                }
                cluster.barrier();
                List<String> mine = new ArrayList<>();
                mine.add((String) node.call("sv.Pair", "totals"));
                if (me == 0) {
                    node.call("sv.Pair", "publish");
                    node.call("sv.Pair", "produce", 200);
                } else {
                    mine.add((String) node.call("sv.Pair", "receive"));
                    mine.add(String.valueOf(node.call("sv.Pair", "consume", 200)));
                }
                seen.put(me, mine);
                cluster.barrier();
            }
        });
        assertEquals(List.of("1600,800,2400,800000"), seen.get(0));
        assertEquals(List.of("1600,800,2400,800000", "hello,2.5,8", "20100"), seen.get(1));
    }

    @Test
    void anArrayAccessSiteThatMetTheNodesOwnArrayStillFillsAndWritesBackACopy() {
        Map<Integer, List<Object>> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            try (Node node = new Node(cluster)) {
                if (cluster.nodeId() == 0) {
                    node.call("sv.Sums", "setup");
                }
                cluster.barrier();
                if (cluster.nodeId() == 1) {
                    seen.put(1, List.of(node.call("sv.Sums", "sumLocalThenShared")));
                    node.call("sv.Sums", "fillLocalThenShared", 5);
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    seen.put(0, List.of(node.call("sv.Sums", "sumShared")));
                }
                cluster.barrier();
            }
        });
        assertEquals(List.of(12), seen.get(1), "node 0's 1 2 3 summed twice on node 1 after its own arrays");
        assertEquals(List.of(18), seen.get(0), "node 1's writes 6 6 6 reached node 0");
    }

    @Test
    void anArrayPublishedToAnotherHomeIsReadAgainFromThereAfterTheMonitorIsEnteredAgain() {
        Map<Integer, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            try (Node node = new Node(cluster)) {
                if (cluster.nodeId() == 0) {
                    node.call("sv.Drop", "setup");
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    node.call("sv.Drop", "answer");
                } else {
                    seen.put(1, node.call("sv.Drop", "publishAndReadBack"));
                }
                cluster.barrier();
            }
        });
        assertEquals(42, seen.get(1), "node 1's site read node 0's write into the array node 1 published to it");
    }

    @Test
    void reflectiveFieldAndElementAccessesReadAndWriteTheSharedObjectAcrossNodes() {
        Map<String, Object> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            try (Node node = new Node(cluster)) {
                if (cluster.nodeId() == 0) {
                    node.call("sv.Reflect", "setup");
                }
                cluster.barrier();
                if (cluster.nodeId() == 1) {
                    seen.put("refused", node.call("sv.Reflect", "writeReflectively", 41, 7L));
                }
                cluster.barrier();
                if (cluster.nodeId() == 0) {
                    seen.put("plain", node.call("sv.Reflect", "readPlain"));
                    node.call("sv.Reflect", "writePlain", 5);
                }
                cluster.barrier();
                if (cluster.nodeId() == 1) {
                    seen.put("reflective", node.call("sv.Reflect", "readReflectively"));
                }
                cluster.barrier();
            }
        });
        assertEquals("IllegalArgumentException", seen.get("refused"), "the JDK's own refusal, as on one JVM");
        assertEquals("41 7 8 9", seen.get("plain"), "node 1's reflective writes reached node 0 (a call's, a write's "
            + "before a super() call, a method reference's)");
        assertEquals("5 5 5 5", seen.get("reflective"), "node 1's reflective reads saw node 0's writes (a call's, a "
            + "method reference's)");
    }

    @Test
    void aMutableJdkObjectReachedFromAnotherNodeIsAnErrorNamingItsClassAndNode() {
        Map<Integer, String> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            try (Node node = new Node(cluster)) {
                if (cluster.nodeId() == 0) {
                    node.call("sv.Leak", "setup");
                    seen.put(0, String.valueOf(node.call("sv.Leak", "size")));
                }
                cluster.barrier();
                if (cluster.nodeId() == 1) {
                    Exception e = assertThrows(Exception.class, () -> node.call("sv.Leak", "size"));
                    seen.put(1, e.getMessage());
                }
                cluster.barrier();
            }
        });
        assertEquals("1", seen.get(0));
        assertTrue(seen.get(1).contains("field sv.Leak.names") && seen.get(1).contains("java.util.ArrayList created "
            + "on node 0"), seen.get(1));
    }

    /**
     * An object of node 0 whose fields hold JDK objects: node 1's copy is filled (its plain fields read) without an
     * error; a woven read, a reflective read and {@code Object.clone} of a field holding one are errors naming the
     * field, its class and node 0; a field node 1 wrote holds node 1's value.
     */
    @Test
    void aCopyWithAJdkObjectFieldFillsAndOnlyReadsOfThatFieldAreErrors() {
        Map<String, String> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            try (Node node = new Node(cluster)) {
                if (cluster.nodeId() == 0) {
                    node.call("sv.Holdall", "setup");
                    seen.put("home", node.call("sv.Holdall", "counts") + " " + node.call("sv.Holdall", "cloned")
                        .getClass().getName());
                }
                cluster.barrier();
                if (cluster.nodeId() == 1) {
                    seen.put("plain", String.valueOf(node.call("sv.Holdall", "plain")));
                    for (String read : List.of("counts", "reflective", "cloned")) {
                        Exception e = assertThrows(Exception.class, () -> node.call("sv.Holdall", read));
                        seen.put(read, e.getMessage());
                    }
                    seen.put("overwritten", String.valueOf(node.call("sv.Holdall", "overwritten")));
                }
                cluster.barrier();
            }
        });
        assertEquals("{a=1} sv.Holdall", seen.get("home"));
        assertEquals("7 plain", seen.get("plain"));
        for (String read : List.of("counts", "reflective", "cloned")) {
            assertTrue(seen.get(read).contains("field sv.Holdall.counts of shared sv.Holdall #")
                && seen.get(read).contains("refers to a java.util.HashMap created on node 0, which node 1 cannot use"),
                read + ": " + seen.get(read));
        }
        assertEquals("true", seen.get("overwritten"));
    }

    private static Object call(ClassLoader l, String cls, String method, Object... args) throws Exception {
        Class<?> c = Class.forName(cls, true, l);
        for (Method m : c.getMethods()) {
            if (m.getName().equals(method) && m.getParameterCount() == args.length) {
                try {
                    return m.invoke(null, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause() instanceof Exception x ? x : new RuntimeException(e.getCause());
                }
            }
        }
        throw new NoSuchMethodException(cls + "." + method);
    }

    /** One node's program: its own weaving class loader and object space, bound to the node's threads. */
    private static final class Node implements AutoCloseable {
        final TestClasses.WeavingLoader loader;
        final ObjectSpace space;

        Node(Cluster cluster) throws Exception {
            loader = new TestClasses.WeavingLoader(classes,
                new SingleVmTransformer(agentErr.stream, AgentSettings.NONE));
            space = new ObjectSpace(((NodeCluster) cluster).capability(SharedHeap.class), loader);
            space.bind();
        }

        Object call(String cls, String method, Object... args) throws Exception {
            space.bind();
            return SingleVmWeaverTest.call(loader, cls, method, args);
        }

        @Override
        public void close() throws Exception {
            space.close();
            loader.close();
        }
    }
}
