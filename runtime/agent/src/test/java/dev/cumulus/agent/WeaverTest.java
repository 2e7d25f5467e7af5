package dev.cumulus.agent;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.cloud.CloudDispatcher;
import dev.cumulus.internal.cloud.CloudHooks;
import dev.cumulus.internal.cloud.RestartAsWrite;
import java.lang.classfile.ClassFile;
import java.lang.classfile.MethodModel;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.IntSupplier;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transformer on the test cloud classes (src/test/cloud), loaded through it into a fresh class loader, with a
 * recording dispatcher installed: the woven write prologue, read restart handler and wait/notify rewrites, the
 * refusal of a violating class, and verification by the JVM (classes are initialized with default verification).
 */
@Timeout(60)
class WeaverTest extends WovenClassesFixture {
    record Call(String what, Object self, String key, List<Object> args) {
    }

    /** Records every hook call; beforeWrite answers with {@link #writeResult} (PROCEED by default). */
    static final class Recording implements CloudDispatcher {
        final List<Call> calls = new CopyOnWriteArrayList<>();
        volatile Object writeResult = CloudHooks.PROCEED;
        volatile Object restartResult;
        volatile boolean interruptWaits;
        volatile Runnable onRestart = () -> { };

        @Override
        public Object beforeWrite(Object self, String methodKey, Object[] args) {
            calls.add(new Call("beforeWrite", self, methodKey, Arrays.asList(args)));
            return writeResult;
        }

        @Override
        public Object restartAsWrite(Object self, String methodKey, Object[] args, RestartAsWrite signal) {
            calls.add(new Call("restartAsWrite", self, methodKey, Arrays.asList(args)));
            onRestart.run();
            return restartResult;
        }

        @Override
        public void await(Object monitor, long millis, int nanos) throws InterruptedException {
            assertTrue(Thread.holdsLock(monitor), "await is called inside the monitor");
            calls.add(new Call("await", monitor, null, List.of(millis, nanos)));
            if (interruptWaits) {
                throw new InterruptedException("test");
            }
        }

        @Override
        public void notify(Object monitor, boolean all) {
            calls.add(new Call(all ? "notifyAll" : "notify", monitor, null, List.of()));
        }

        List<String> whats() {
            return calls.stream().map(Call::what).toList();
        }
    }

    static Object create(String name) throws Exception {
        return Class.forName(name, true, loader).getConstructor().newInstance();
    }

    static Object call(Object target, String name, Object... args) throws Throwable {
        for (Method m : target.getClass().getDeclaredMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length) {
                m.setAccessible(true);
                try {
                    return m.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                }
            }
        }
        throw new NoSuchMethodException(name);
    }

    @Test
    void everyTestClassVerifiesAndInitializes() throws Exception {
        for (String n : List.of("weave.Account", "weave.Scaler", "weave.Bin", "weave.Plain", "weave.Late")) {
            Class<?> c = Class.forName(n, true, loader);
            assertSame(loader, c.getClassLoader(), n);
        }
        assertTrue(loader.woven.containsKey("weave.Account"));
        assertTrue(loader.woven.containsKey("weave.Scaler"));
        assertTrue(loader.woven.containsKey("weave.Bin"));
        assertFalse(loader.woven.containsKey("weave.Plain"), "non-cloud classes are not woven");
        assertFalse(agentErr.text().contains("cannot weave"), agentErr.text());
    }

    @Test
    void writesCallBeforeWriteWithKeyAndBoxedArgsThenProceed() throws Throwable {
        Object a = create("weave.Account");
        int[] arr = {1, 2};
        call(a, "setAll", 7, 8L, 9.5, true, "s", arr, 'c', (byte) 3, (short) 4, 5.5f);
        Call c = rec.calls.getFirst();
        assertEquals("beforeWrite", c.what());
        assertSame(a, c.self());
        assertEquals("setAll(IJDZLjava/lang/String;[ICBSF)V", c.key());
        assertEquals(List.of(7, 8L, 9.5, true, "s", arr, 'c', (byte) 3, (short) 4, 5.5f), c.args());
        // PROCEED: the original body ran
        assertEquals("s:7:8:9.5:true:2:c:3:4:5.5", call(a, "summary"));
        assertEquals(12, call(a, "addInt", 5));
        assertEquals(new Call("beforeWrite", a, "addInt(I)I", List.of(5)), rec.calls.get(1));
        assertEquals(List.of("beforeWrite", "beforeWrite"), rec.whats(), "reads do not call the dispatcher");
    }

    @Test
    void writesReturnTheDispatchersResultForEveryReturnType() throws Throwable {
        Object a = create("weave.Account");
        rec.writeResult = 41;
        assertEquals(41, call(a, "addInt", 1));
        rec.writeResult = 1L << 40;
        assertEquals(1L << 40, call(a, "addLong", 1L));
        rec.writeResult = 2.25;
        assertEquals(2.25, call(a, "addDouble", 1.0));
        rec.writeResult = Boolean.TRUE;
        assertEquals(true, call(a, "flip"));
        rec.writeResult = "old";
        assertEquals("old", call(a, "rename", "new"));
        int[] arr = {4};
        rec.writeResult = arr;
        assertSame(arr, call(a, "replace", new int[0]));
        rec.writeResult = 'z';
        assertEquals('z', call(a, "nextChar"));
        rec.writeResult = (byte) -2;
        assertEquals((byte) -2, call(a, "nextByte"));
        rec.writeResult = (short) 300;
        assertEquals((short) 300, call(a, "nextShort"));
        rec.writeResult = 1.5f;
        assertEquals(1.5f, call(a, "addFloat", 1f));
        Object any = List.of(1);
        rec.writeResult = any;
        assertSame(any, call(a, "swap", "x"));
        rec.writeResult = null;
        assertNull(call(a, "rename", "y"), "null is a result too (only PROCEED runs the body)");
        assertNull(call(a, "setAll", 1, 1L, 1.0, false, "t", new int[0], 'a', (byte) 1, (short) 1, 1f));
        assertEquals(":0:0:0.0:false:0:\u0000:0:0:0.0", call(a, "summary"), "no body ran");
        assertEquals("swap(Ljava/lang/Object;)Ljava/lang/Object;", rec.calls.get(10).key());
        rec.writeResult = "not an int";
        assertThrows(ClassCastException.class, () -> call(a, "addInt", 1));
    }

    @Test
    void readsRunUntouchedOnTheNormalPath() throws Throwable {
        Object s = create("weave.Scaler");
        IntSupplier one = () -> 1;
        assertEquals(5 * 3 - 1 + 1 + 1, call(s, "scaled", 5, 7L, "t", one));
        assertEquals(0L + 1 + 3, call(s, "wide", 9L, 2.5, one));
        assertEquals(2.0 + 1, call(s, "ratio", 6.0, one));
        assertEquals(false, call(s, "positive", 4, one));
        assertArrayEquals(new String[] {"changed"}, (String[]) call(s, "names", "a", one));
        assertNull(call(s, "check", 1, one));
        assertEquals(6 * 3, call(s, "guarded", 5, one));
        assertTrue(rec.calls.isEmpty(), "reads do not call the dispatcher: " + rec.calls);
        Object a = create("weave.Account");
        assertEquals(0, call(a, "readInt"));
        assertEquals(0L, call(a, "readLong"));
        assertTrue(rec.calls.isEmpty(), rec.calls.toString());
    }

    @Test
    void restartAsWriteRunsTheHandlerWithTheOriginalParameterValues() throws Throwable {
        Object s = create("weave.Scaler");
        IntSupplier restart = () -> {
            throw new RestartAsWrite(s);
        };
        rec.restartResult = 42;
        assertEquals(42, call(s, "scaled", 5, 7L, "t", restart));
        assertEquals(new Call("restartAsWrite", s, "scaled(IJLjava/lang/String;Ljava/util/function/IntSupplier;)I",
                List.of(5, 7L, "t", restart)), rec.calls.getFirst());
        rec.restartResult = 99L;
        assertEquals(99L, call(s, "wide", 9L, 2.5, restart));
        assertEquals(List.of(9L, 2.5, restart), rec.calls.get(1).args());
        rec.restartResult = 0.5;
        assertEquals(0.5, call(s, "ratio", 6.0, restart));
        assertEquals(List.of(6.0, restart), rec.calls.get(2).args());
        rec.restartResult = true;
        assertEquals(true, call(s, "positive", 4, restart));
        assertEquals(List.of(4, restart), rec.calls.get(3).args());
        String[] names = {"x"};
        rec.restartResult = names;
        assertSame(names, call(s, "names", "a", restart));
        assertEquals(List.of("a", restart), rec.calls.get(4).args());
        rec.restartResult = "ignored";
        assertNull(call(s, "check", 1, restart));
        assertEquals(List.of(1, restart), rec.calls.get(5).args());
        rec.restartResult = 7;
        assertEquals(7, call(s, "guarded", 5, restart), "a user catch of another type does not hide the signal");
        assertEquals(List.of(5, restart), rec.calls.get(6).args());
        assertEquals(List.of("restartAsWrite"), rec.whats().stream().distinct().toList());
    }

    /**
     * A read that calls out counts itself open on its thread while it runs (a write then walks the stack for an
     * enclosing read), and leaves the count on every way out: return, exception, restart; a read that calls nothing
     * is not counted at all.
     */
    @Test
    void readsThatCallOutCountThemselvesOpenOnEveryWayOut() throws Throwable {
        Object s = create("weave.Scaler");
        int[] seen = new int[2];
        IntSupplier look = () -> {
            seen[0] = CloudHooks.openReads();
            return 1;
        };
        assertEquals(0, CloudHooks.openReads());
        call(s, "scaled", 5, 7L, "t", look);
        assertEquals(1, seen[0], "open while it runs");
        assertEquals(0, CloudHooks.openReads(), "left on return");
        IntSupplier nested = () -> {
            try {
                return (int) call(s, "guarded", 1, look);
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        };
        call(s, "ratio", 6.0, nested);
        assertEquals(2, seen[0], "a read inside a read");
        assertEquals(0, CloudHooks.openReads());
        IntSupplier fail = () -> {
            throw new IllegalStateException("boom");
        };
        assertThrows(IllegalStateException.class, () -> call(s, "wide", 1L, 1.0, fail));
        assertEquals(0, CloudHooks.openReads(), "left when the read throws");
        IntSupplier negative = () -> -10;
        assertThrows(IllegalStateException.class, () -> call(s, "check", -5, negative));
        assertEquals(0, CloudHooks.openReads(), "left when the read's own throw ends it");
        rec.onRestart = () -> seen[1] = CloudHooks.openReads();
        rec.restartResult = 11;
        seen[1] = -1;
        IntSupplier restart = () -> {
            throw new RestartAsWrite(s);
        };
        assertEquals(11, call(s, "scaled", 1, 1L, "t", restart));
        assertEquals(0, seen[1], "left before the restart, so restartAsWrite sees no read around it");
        assertEquals(0, CloudHooks.openReads());
        Object a = create("weave.Account");
        assertEquals(0, call(a, "readInt"));
        assertFalse(Weaver.callsOut("weave/Account", method(a, "readInt").code().orElseThrow()),
            "a getter calls nothing");
        assertTrue(Weaver.callsOut("weave/Account", method(a, "summary").code().orElseThrow()),
            "string concatenation");
    }

    private static MethodModel method(Object target, String name) throws Exception {
        String resource = target.getClass().getName().replace('.', '/') + ".class";
        byte[] original = Files.readAllBytes(classes.resolve(resource));
        return ClassFile.of().parse(original).methods().stream()
                .filter(m -> m.methodName().equalsString(name)).findFirst().orElseThrow();
    }

    @Test
    void withoutARuntimeTheRestartSignalPropagates() throws Throwable {
        CloudHooks.install(null); // PASS_THROUGH rethrows the signal
        Object s = create("weave.Scaler");
        RestartAsWrite signal = new RestartAsWrite(s);
        IntSupplier restart = () -> {
            throw signal;
        };
        assertSame(signal, assertThrows(RestartAsWrite.class, () -> call(s, "scaled", 1, 1L, "t", restart)));
        Object a = create("weave.Account");
        assertEquals(3, call(a, "addInt", 3), "PASS_THROUGH proceeds");
    }

    @Test
    void waitAndNotifyGoToTheDispatcher() throws Throwable {
        Object bin = create("weave.Bin");
        call(bin, "put", 5);
        assertEquals(List.of("beforeWrite", "notify"), rec.whats());
        assertSame(bin, rec.calls.get(1).self());
        assertEquals(5, call(bin, "get"));
        assertEquals(List.of("beforeWrite", "notify", "beforeWrite", "notifyAll"), rec.whats());
        rec.calls.clear();
        rec.interruptWaits = true;
        assertThrows(InterruptedException.class, () -> call(bin, "get"));
        assertEquals(List.of("beforeWrite", "await"), rec.whats());
        assertEquals(List.of(0L, 0), rec.calls.get(1).args());
        rec.calls.clear();
        rec.interruptWaits = false;
        assertEquals(false, call(bin, "pause"));
        assertEquals(List.of(1L, 2), rec.calls.stream().filter(c -> c.what().equals("await")).findFirst()
                .orElseThrow().args());
        call(bin, "put", 1);
        rec.calls.clear();
        rec.interruptWaits = true;
        assertThrows(InterruptedException.class, () -> call(bin, "put", 2));
        assertEquals(List.of(100L, 0), rec.calls.get(1).args(), "wait(long)");
    }

    @Test
    void nonCloudClassesKeepPlainWaitNotify() throws Throwable {
        Object p = create("weave.Plain");
        call(p, "poke");
        assertEquals(1, call(p, "n"));
        assertTrue(rec.calls.isEmpty());
    }

    @Test
    void aViolatingClassFailsToInitializeWithTheRuleInTheMessage() throws Exception {
        ExceptionInInitializerError e = assertThrows(ExceptionInInitializerError.class,
                () -> Class.forName("weave.Refused", true, loader));
        CumulusException cause = assertInstanceOf(CumulusException.class, e.getCause());
        String m = cause.getMessage();
        assertTrue(m.startsWith("class weave.Refused violates CUM104 of the replication restrictions"), m);
        assertTrue(m.contains("Refused.java:7: error CUM104 [weave.Refused.counter]"), m);
        assertTrue(m.contains("see docs/rules/CUM104.md"), m);
        assertTrue(agentErr.text().contains("Refused.java:7: error CUM104"), agentErr.text());
        assertTrue(agentErr.text().contains("cumulus-agent: refused weave.Refused (1 error)"), agentErr.text());
        Refusals.Refusal r = Refusals.of("weave.Refused").orElseThrow();
        assertTrue(r.atLoadTime());
        assertEquals(m, r.message());
        assertEquals("CUM104", r.findings().getFirst().ruleId());
        try { // CloudHooks.recordRefusal/refusalOf, where the runtime has them
            Method refusalOf = CloudHooks.class.getMethod("refusalOf", String.class);
            assertEquals(m, refusalOf.invoke(null, "weave.Refused"));
        } catch (NoSuchMethodException absent) {
            // older runtime: Refusals is the only record
        }
        // later uses keep failing, naming the first failure
        NoClassDefFoundError again = assertThrows(NoClassDefFoundError.class,
                () -> Class.forName("weave.Refused", true, loader));
        assertNotNull(again.getMessage());
    }

    @Test
    void transformerErrorsArePrintedAndTheClassIsLeftAlone(@TempDir Path dir) throws Exception {
        String text = transformBroken(dir, AgentSettings.NONE);
        assertTrue(text.startsWith("cumulus-agent: cannot weave broken.Broken, left unchanged: "), text);
        assertEquals(1, text.lines().count(), text);
    }

    @Test
    void theDebugOptionAddsTheStackTrace(@TempDir Path dir) throws Exception {
        String text = transformBroken(dir, AgentSettings.parse("debug"));
        assertTrue(text.startsWith("cumulus-agent: cannot weave broken.Broken, left unchanged: "), text);
        assertTrue(text.lines().skip(1).anyMatch(l -> l.startsWith("\tat ")), "a stack trace follows: " + text);
    }

    /** What the transformer prints for a cloud class it cannot weave, given {@code settings}. */
    private static String transformBroken(Path dir, AgentSettings settings) throws Exception {
        // a cloud class whose stack maps need the hierarchy of classes this loader cannot find
        Files.writeString(dir.resolve("Broken.java"), """
                package broken;
                class Base { }
                class A extends Base { }
                class B extends Base { }
                public class Broken implements dev.cumulus.Cloud.Root {
                    private int n;
                    Object pick(boolean f) { Base x = f ? new A() : new B(); return x; }
                }
                """);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, "-d", dir.toString(), "-cp",
                System.getProperty("java.class.path"), dir.resolve("Broken.java").toString()));
        byte[] original = Files.readAllBytes(dir.resolve("broken/Broken.class"));
        for (String n : List.of("Base", "A", "B")) {
            Files.delete(dir.resolve("broken/" + n + ".class"));
        }
        TestClasses.Captured err = new TestClasses.Captured();
        CloudTransformer transformer = new CloudTransformer(err.stream, settings);
        try (TestClasses.WeavingLoader l = new TestClasses.WeavingLoader(dir, transformer)) {
            assertNull(transformer.transform(l, "broken/Broken", null, null, original));
        }
        return err.text();
    }

    @Test
    void skipsLibrariesAndTheRuntimeByName() {
        assertTrue(Names.skip("java/lang/String"));
        assertTrue(Names.skip("io/aeron/Aeron"));
        assertTrue(Names.skip("dev/cumulus/Cloud$Root"));
        assertTrue(Names.skip("dev/cumulus/internal/cloud/CloudHooks"));
        assertTrue(Names.skip("dev/cumulus/array/SharedIntArray"));
        assertTrue(Names.skip("dev/cumulus/pastset/PastSet"));
        assertFalse(Names.skip("dev/cumulus/singlevm/SharedList"), "the shared collections are woven");
        assertFalse(Names.skip("dev/cumulus/examples/tsp/Minimum"));
        assertFalse(Names.skip("weave/Account"));
    }
    /**
     * A cloud class is wait-free (its writes may run on a waiting caller's thread) only when it has no wait() call and
     * refers to no class but itself, the JDK's and the cloud API: a class it reaches might wait, and load mid-write.
     */
    @Test
    void onlySelfContainedClassesWithoutWaitCallsAreWaitFree() throws Exception {
        create("weave.Account");
        create("weave.Bin");
        create("weave.Ledger");
        assertTrue(CloudHooks.isWaitFree(Class.forName("weave.Account", false, loader)),
            "fields of JDK types and primitive arrays only, no wait()");
        assertFalse(CloudHooks.isWaitFree(Class.forName("weave.Bin", false, loader)), "Bin calls wait()");
        assertFalse(CloudHooks.isWaitFree(Class.forName("weave.Ledger", false, loader)),
            "Ledger reaches its node class Ledger$Line");
    }

    @Test
    void aClassEntryIsAClassWhateverItsNameAndAnArrayOfPrimitivesIsNone() {
        assertEquals("B", Weaver.elementName("B"), "a one-letter class in the default package");
        assertEquals("x/Y", Weaver.elementName("[[Lx/Y;"));
        assertNull(Weaver.elementName("[I"));
        assertEquals("java/lang/String", Weaver.elementName("java/lang/String"));
    }
}
