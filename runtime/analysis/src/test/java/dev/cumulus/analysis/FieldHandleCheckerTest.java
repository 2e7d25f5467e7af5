package dev.cumulus.analysis;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** CUM207: handles on fields and array elements made by program code; Field's accessors and method handles are fine. */
@Timeout(60)
class FieldHandleCheckerTest {
    private static final String PAST = "it reads and writes past the shared heap, so on another node's copy it reads "
            + "stale values and its writes never reach the home";

    @TempDir
    Path tmp;

    private static FieldHandleChecker checker(ClassIndex index) {
        return new FieldHandleChecker(index, new SingleVmFacts(index));
    }

    @Test
    void handlesOnFieldsAndElementsAreReportedOncePerLine() {
        try (CheckerFixture fx = new CheckerFixture(tmp, """
                import java.lang.invoke.*;
                import java.util.concurrent.atomic.*;
                class Handles {
                    volatile int n;
                    Object run() throws Exception {
                        MethodHandles.Lookup l = MethodHandles.lookup();
                        VarHandle v = l.findVarHandle(Handles.class, "n", int.class);
                        MethodHandle g = l.findGetter(Handles.class, "n", int.class); l.findSetter(Handles.class, "n", int.class);
                        VarHandle a = MethodHandles.arrayElementVarHandle(int[].class);
                        AtomicIntegerFieldUpdater<Handles> u = AtomicIntegerFieldUpdater.newUpdater(Handles.class, "n");
                        return List.of(v, g, a, u);
                    }
                    static final class List { static Object of(Object... o) { return o; } }
                }
                class NoHandles {
                    int n;
                    Object run() throws Throwable {
                        MethodHandle m = MethodHandles.lookup().findVirtual(Object.class, "hashCode",
                            MethodType.methodType(int.class));
                        return (int) m.invoke(this) + NoHandles.class.getDeclaredField("n").getInt(this);
                    }
                }
                """)) {
            assertEquals(List.of(
                    "CUM207 run@8: method 'run' makes a handle on fields or array elements "
                            + "(MethodHandles.Lookup.findVarHandle()): " + PAST,
                    "CUM207 run@9: method 'run' makes a handle on fields or array elements "
                            + "(MethodHandles.Lookup.findGetter()): " + PAST,
                    "CUM207 run@10: method 'run' makes a handle on fields or array elements "
                            + "(MethodHandles.arrayElementVarHandle()): " + PAST,
                    "CUM207 run@11: method 'run' makes a handle on fields or array elements "
                            + "(AtomicIntegerFieldUpdater.newUpdater()): " + PAST),
                    fx.check(FieldHandleCheckerTest::checker, "Handles"));
            assertEquals(List.of(), fx.check(FieldHandleCheckerTest::checker, "NoHandles"));
        }
    }
}
