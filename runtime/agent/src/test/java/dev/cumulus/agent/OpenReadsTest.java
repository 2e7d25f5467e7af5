package dev.cumulus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.cumulus.analysis.Access;
import dev.cumulus.analysis.AnalysisResult;
import dev.cumulus.analysis.MethodClassification;
import dev.cumulus.internal.cloud.CloudHooks;
import dev.cumulus.internal.cloud.RestartAsWrite;
import java.lang.classfile.ClassFile;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.instrument.ClassFileTransformer;
import java.lang.reflect.Method;
import java.security.ProtectionDomain;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The open-read count ({@code CloudHooks.openReads}) on odd shapes of reads and odd ways out of them. */
@Timeout(60)
class OpenReadsTest extends WovenClassesFixture {
    static Object create(ClassLoader l, String name) throws Exception {
        return Class.forName(name, true, l).getConstructor().newInstance();
    }

    static Object call(Object target, String name, Object... args) throws Throwable {
        return WeaverTest.call(target, name, args);
    }

    @Test
    void oddShapesVerifyAndLeaveTheCountOnEveryWayOut() throws Throwable {
        Object o = create(loader, "weave.Odd");
        assertFalse(agentErr.text().contains("cannot weave"), agentErr.text());
        assertTrue(loader.woven.containsKey("weave.Odd"), agentErr.text());
        int[] seen = {-1};
        IntSupplier look = () -> {
            seen[0] = CloudHooks.openReads();
            return 1;
        };
        IntSupplier boom = () -> {
            throw new IllegalStateException("boom");
        };
        assertEquals(0, CloudHooks.openReads());
        // return inside finally (javac copies the finally block onto every way out, the handler's copy returns)
        assertEquals(12L, call(o, "finallyReturn", 5L, look));
        assertEquals(1, seen[0]);
        assertEquals(0, CloudHooks.openReads());
        assertEquals(995L, call(o, "finallyReturn", 5L, (IntSupplier) () -> -1000));
        assertEquals(0, CloudHooks.openReads());
        assertThrows(IllegalStateException.class, () -> call(o, "finallyReturn", 5L, boom));
        assertEquals(0, CloudHooks.openReads());
        assertEquals(5L, call(o, "finallyReturn", -5L, boom), "the finally's return swallows the exception");
        assertEquals(0, CloudHooks.openReads());
        // loops with returns in try and catch
        int[] n = {0};
        IntSupplier fiveIae = () -> {
            if (n[0]++ < 5) {
                throw new IllegalArgumentException();
            }
            return 5;
        };
        assertEquals(10.0, call(o, "loop", 2.0, fiveIae));
        assertEquals(0, CloudHooks.openReads());
        IntSupplier iae = () -> {
            throw new IllegalArgumentException();
        };
        assertEquals(-1.0, call(o, "loop", 2.0, iae));
        assertEquals(0, CloudHooks.openReads());
        // monitors
        assertEquals(4L, call(o, "syncMethod", 3L, look));
        assertThrows(IllegalStateException.class, () -> call(o, "syncMethod", -3L, look));
        assertEquals(0, CloudHooks.openReads());
        assertEquals(1, call(o, "syncBlock", 3, look));
        assertEquals(-1, call(o, "syncBlock", -3, look));
        assertThrows(IllegalStateException.class, () -> call(o, "syncBlock", -3, boom));
        assertFalse(Thread.holdsLock(o));
        assertEquals(0, CloudHooks.openReads());
        // string switch; a null string throws from hashCode
        assertEquals(1, call(o, "stringSwitch", "a", look));
        assertEquals(1, call(o, "stringSwitch", "b", look));
        assertThrows(NullPointerException.class, () -> call(o, "stringSwitch", null, look));
        assertEquals(0, CloudHooks.openReads());
        // a user catch (Throwable) sees the restart signal first and returns
        assertEquals(9, call(o, "swallowAll", 9, (IntSupplier) () -> {
            throw new RestartAsWrite(o);
        }));
        assertEquals(0, CloudHooks.openReads());
        // recursion
        assertEquals(101, call(o, "recurse", 100, look));
        assertEquals(101, seen[0]);
        assertEquals(0, CloudHooks.openReads());
        // > 255 local slots (wide loads/stores of the woven locals)
        double expected = 2.0 + 140 * 141 / 2 + 1;
        assertEquals(expected, call(o, "manyLocals", 2.0, look));
        assertThrows(IllegalStateException.class, () -> call(o, "manyLocals", 2.0, boom));
        assertEquals(0, CloudHooks.openReads());
        assertThrows(ArithmeticException.class, () -> call(o, "throwsOnly"));
        assertEquals(0, CloudHooks.openReads());
        // the method's first instruction is a loop head (back-edge to offset 0)
        assertEquals(0, call(o, "loopAtStart", 5, look));
        assertEquals(1, seen[0], "the loop does not run enterRead again");
        assertEquals(0, CloudHooks.openReads());
        // a default method of a cloud interface
        Object lab = create(loader, "weave.LabeledImpl");
        Method label = Class.forName("weave.Labeled", false, loader).getMethod("label", IntSupplier.class);
        assertEquals(2, label.invoke(lab, look));
        assertEquals(0, CloudHooks.openReads());
    }

    /** restartAsWrite throws (no runtime: the signal propagates; or an outer read restarts): left exactly once. */
    @Test
    void theRestartHandlerLeavesOnceWhenRestartAsWriteThrows() throws Throwable {
        Object o = create(loader, "weave.Odd");
        IntSupplier restart = () -> {
            throw new RestartAsWrite(o);
        };
        CloudHooks.install(null); // PASS_THROUGH rethrows the signal
        assertThrows(RestartAsWrite.class, () -> call(o, "recurse", 0, restart));
        assertEquals(0, CloudHooks.openReads(), "the signal thrown out of the restart handler");
        CloudHooks.install(rec);
        // an inner read restarts, its restartAsWrite rethrows (an outer read is open), the outer one restarts
        int[] seenAtRestart = {-1, -1};
        int[] restarts = {0};
        rec.onRestart = () -> {
            seenAtRestart[restarts[0]] = CloudHooks.openReads();
            if (restarts[0]++ == 0) {
                throw new RestartAsWrite(o);
            }
        };
        rec.restartResult = 77;
        IntSupplier inner = () -> {
            try {
                return (int) call(o, "recurse", 0, restart);
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable t) {
                throw new AssertionError(t);
            }
        };
        assertEquals(77, call(o, "stringSwitch", "b", inner));
        assertEquals(1, seenAtRestart[0], "the inner restart sees the outer read open");
        assertEquals(0, seenAtRestart[1], "the outer restart sees nothing around it");
        assertEquals(0, CloudHooks.openReads());
    }

    /** A StackOverflowError through a deep recursion of counted reads: does the count come back to 0? */
    @Test
    void stackOverflowThroughCountedReads() throws Throwable {
        Object o = create(loader, "weave.Odd");
        AtomicReference<Object> result = new AtomicReference<>();
        Thread t = new Thread(null, () -> {
            try {
                call(o, "recurse", 100_000_000, (IntSupplier) () -> 1);
                result.set("no overflow");
            } catch (StackOverflowError e) {
                result.set(CloudHooks.openReads());
            } catch (Throwable e) {
                result.set(e);
            }
        }, "deep", 256 * 1024);
        t.start();
        t.join();
        assertEquals(0, result.get(), "open reads left on the thread after a StackOverflowError");
    }

    /**
     * The safety claim: openReads() == 0 implies no woven root read is on the stack. A read with no invoke that names
     * another class (instanceof, checkcast, its field) makes the JVM load that class through the defining loader,
     * i.e. run program code (a class loader's loadClass/findClass, any ClassFileTransformer) on top of the read's
     * frame: such a read counts itself open.
     */
    @Test
    void aReadThatLoadsAClassIsOpenWhileTheClassLoads() throws Throwable {
        CloudTransformer cloud = new CloudTransformer(agentErr.stream, AgentSettings.NONE);
        int[] openWhileLoading = {-1};
        boolean[] readOnStack = {false};
        ClassFileTransformer hooking = new ClassFileTransformer() {
          @Override
          public byte[] transform(ClassLoader l, String name, Class<?> c, ProtectionDomain pd, byte[] bytes) {
            if (name.equals("weave/Loaded")) {
                // stands for program code: a user-defined loader's findClass, a logging transformer...
                openWhileLoading[0] = CloudHooks.openReads();
                readOnStack[0] = StackWalker.getInstance().walk(s -> s.anyMatch(
                        f -> f.getClassName().equals("weave.Holder") && f.getMethodName().equals("loadedN")));
            }
            return cloud.transform(l, name, c, pd, bytes);
          }
        };
        try (TestClasses.WeavingLoader l = new TestClasses.WeavingLoader(classes, hooking)) {
            Object h = create(l, "weave.Holder");
            assertTrue(l.woven.containsKey("weave.Holder"), agentErr.text());
            assertEquals(-1, call(h, "loadedN"));
            assertTrue(readOnStack[0], "the root read loadedN() is below the class loading");
            assertEquals(1, openWhileLoading[0],
                    "a write here would skip the walk and not restart the read");
        }
    }

    /** A getter (its own field, an array length) is woven without the count; a read naming another class with it. */
    @Test
    void onlyReadsThatMayRunProgramCodeAreCounted() throws Throwable {
        Object h = create(loader, "weave.Holder");
        var woven = ClassFile.of().parse(loader.woven.get("weave.Holder"));
        Predicate<String> counted = name -> woven.methods().stream()
                .filter(m -> m.methodName().equalsString(name)).findFirst().orElseThrow().code().orElseThrow()
                .elementStream().anyMatch(e -> e instanceof InvokeInstruction ii
                        && ii.name().equalsString("enterRead"));
        assertFalse(counted.test("size"), "size() reads its own field and an array length");
        assertTrue(counted.test("loadedN"), "loadedN()'s instanceof may load a class: program code on top of it");
        assertEquals(0, call(h, "size"));
    }

    @Test
    void virtualThreadsThatUnmountInsideAReadKeepTheirOwnCount() throws Throwable {
        Object o = create(loader, "weave.Odd");
        Set<String> bad = ConcurrentHashMap.newKeySet();
        try (var ex = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < 200; i++) {
                ex.submit(() -> {
                    int[] seen = new int[4];
                    int[] k = {0};
                    IntSupplier sleepy = () -> {
                        try {
                            Thread.sleep(2);
                        } catch (InterruptedException e) {
                            throw new IllegalStateException(e);
                        }
                        seen[k[0]++] = CloudHooks.openReads();
                        return 1;
                    };
                    try {
                        call(o, "recurse", 3, sleepy);
                        call(o, "loop", 1.0, sleepy);
                    } catch (Throwable t) {
                        bad.add(t.toString());
                    }
                    if (seen[0] != 4 || seen[1] != 1 || CloudHooks.openReads() != 0) {
                        bad.add(Arrays.toString(seen) + " after " + CloudHooks.openReads());
                    }
                    return null;
                });
            }
        }
        assertEquals(Set.of(), bad);
        assertEquals(0, CloudHooks.openReads());
    }

    /**
     * Hand-written bytecode: a synchronized read that exits its own monitor, so its return throws
     * IllegalMonitorStateException after the woven exit; the catch-all exits again. Exits restore the count the read
     * began with, so the second one does no harm (a decrement left -1 on the thread for good).
     */
    @Test
    void aReturnThatThrowsAfterExitRead() throws Throwable {
        ClassDesc self = ClassDesc.of("weave.Unbalanced");
        MethodTypeDesc v = MethodTypeDesc.of(ClassDesc.ofDescriptor("V"));
        MethodTypeDesc i = MethodTypeDesc.of(ClassDesc.ofDescriptor("I"));
        byte[] bytes = ClassFile.of().build(self, cb -> {
            cb.withInterfaceSymbols(ClassDesc.of("dev.cumulus.Cloud$Node"));
            cb.withMethodBody("<init>", v, ClassFile.ACC_PUBLIC,
                    b -> b.aload(0).invokespecial(ClassDesc.of("java.lang.Object"), "<init>", v).return_());
            cb.withMethodBody("get", i, ClassFile.ACC_PUBLIC | ClassFile.ACC_SYNCHRONIZED,
                    b -> b.aload(0).monitorexit().aload(0)
                            .invokevirtual(ClassDesc.of("java.lang.Object"), "hashCode", i).ireturn());
        });
        var cm = ClassFile.of().parse(bytes);
        AnalysisResult r = new AnalysisResult(List.of(), List.of(new MethodClassification("weave/Unbalanced", "get",
                "()I", null, -1, Access.READ, List.of())));
        byte[] woven = Weaver.weave(Weaver.classFile(getClass().getClassLoader()), cm, r);
        Class<?> c = new ClassLoader(getClass().getClassLoader()) {
            Class<?> define() {
                return defineClass("weave.Unbalanced", woven, 0, woven.length);
            }
        }.define();
        Object x = c.getConstructor().newInstance();
        Throwable t = assertThrows(Throwable.class, () -> call(x, "get"));
        assertEquals(0, CloudHooks.openReads(), "after " + t);
    }
}
