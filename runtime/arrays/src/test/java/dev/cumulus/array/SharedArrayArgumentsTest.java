package dev.cumulus.array;

import dev.cumulus.Cluster;
import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import dev.cumulus.internal.array.ArrayRuntime;
import dev.cumulus.internal.cluster.NodeCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;

import java.lang.reflect.Array;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Invalid arguments to shared arrays follow Java's conventions, on an in-process cluster: indices out of range throw
 * {@link IndexOutOfBoundsException} naming the array, the index and the bound, the same on every node; bad sizes and
 * names {@link IllegalArgumentException}; nulls {@link NullPointerException}.
 */
@Timeout(120)
class SharedArrayArgumentsTest {
    /** The element types, with a value of each. */
    private static final List<Map.Entry<Class<?>, Object>> KINDS = List.of(Map.entry(double.class, 1.5),
        Map.entry(float.class, 1.5f), Map.entry(long.class, 7L), Map.entry(int.class, 7));

    /** One refused call: what it is, what it throws, what its message says. */
    private record Outcome(String type, String message) {
    }

    @Test
    void everyOutOfRangeAccessOfEveryKindThrowsIndexOutOfBoundsAlikeOnEveryNode() {
        Map<Integer, List<Outcome>> seen = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            List<Outcome> mine = new ArrayList<>();
            for (Map.Entry<Class<?>, Object> kind : KINDS) {
                String type = kind.getKey().getName();
                // 4x6 in 2x3 partitions: partitions 0 and 1 are homed on node 0, 2 and 3 on node 1
                SharedArray grid = create(cluster, kind.getKey(), "grid-" + type, ArrayShape.of(4, 6).blocks(2, 3));
                SharedArray line = create(cluster, kind.getKey(), "line-" + type, ArrayShape.of(8).blocks(4));
                refuseOutOfRange(grid, line, kind.getValue(), mine);
                refuseNullBuffers(grid, mine);
                assertEquals(0, runtime(cluster).readMisses(grid.name()) + runtime(cluster).writeMisses(grid.name()),
                    "a refused access must not reach the coherence protocol");
                // the array still works after every refusal: each node writes in the other node's partitions
                int row = cluster.nodeId() == 0 ? 3 : 0;
                call(grid, "set", row, 5, kind.getValue());
                assertEquals(kind.getValue(), call(grid, "get", row, 5));
            }
            seen.put(cluster.nodeId(), mine);
        });
        assertEquals(seen.get(0), seen.get(1), "node 0 and node 1 must refuse the same calls the same way");
    }

    private static void refuseOutOfRange(SharedArray grid, SharedArray line, Object value, List<Outcome> out) {
        String g = "'" + grid.name() + "'";
        String l = "'" + line.name() + "'";
        Class<?> type = elementType(grid);
        Object six = Array.newInstance(type, 6);
        Object two = Array.newInstance(type, 2);
        outOfBounds(out, () -> call(grid, "get", 4, 0), g, "(4, 0)", "row 4", "0..3", "4x6");
        outOfBounds(out, () -> call(grid, "get", 0, 6), g, "(0, 6)", "column 6", "0..5");
        outOfBounds(out, () -> call(grid, "get", -1, 2), g, "(-1, 2)", "row -1");
        outOfBounds(out, () -> call(grid, "set", 0, -1, value), g, "(0, -1)", "column -1");
        outOfBounds(out, () -> call(grid, "set", 4, 5, value), g, "(4, 5)", "row 4");
        outOfBounds(out, () -> call(grid, "getAsync", 3, 6), g, "(3, 6)", "column 6");
        outOfBounds(out, () -> call(grid, "setAsync", 4, 0, value), g, "(4, 0)", "row 4");
        outOfBounds(out, () -> call(grid, "readBlock", 3, 0, 2, 6), g, "region 2x6 at (3, 0)", "rows 3..4", "0..3");
        outOfBounds(out, () -> call(grid, "readBlock", 0, 4, 2, 3, six), g, "region 2x3 at (0, 4)", "columns 4..6",
            "0..5");
        outOfBounds(out, () -> call(grid, "readBlock", 0, 0, 2, 3, Array.newInstance(type, 5)), g,
            "needs 6 elements", "length is 5");
        outOfBounds(out, () -> call(grid, "readBlock", 0, 0, -1, 3), g, "region -1x3", "negative");
        outOfBounds(out, () -> call(grid, "writeBlock", -1, 0, 1, 2, two), g, "region 1x2 at (-1, 0)", "row -1");
        outOfBounds(out, () -> call(grid, "writeBlock", 0, 0, 1, 6, Array.newInstance(type, 4)), g,
            "needs 6 elements", "length is 4");
        outOfBounds(out, () -> call(grid, "readBlockAsync", 4, 0, 1, 1), g, "row 4");
        outOfBounds(out, () -> call(grid, "writeBlockAsync", 0, 5, 1, 2, two), g, "columns 5..6");
        outOfBounds(out, () -> call(grid, "writeBlockAsync", 0, 0, 2, 3, two), g, "needs 6 elements");
        outOfBounds(out, () -> call(grid, "readBlock", 0, 7, 0, 0), g, "region 0x0 at (0, 7)", "column 7");
        outOfBounds(out, () -> grid.partitionOf(4, 0), g, "(4, 0)");
        for (int p : new int[] {-1, 4}) {
            String[] says = {g, "partition " + p, "4 partitions", "0..3"};
            outOfBounds(out, () -> grid.firstRowOf(p), says);
            outOfBounds(out, () -> grid.firstColOf(p), says);
            outOfBounds(out, () -> grid.homeOf(p), says);
            outOfBounds(out, () -> grid.cacheState(p), says);
            outOfBounds(out, () -> grid.requestPartitionCopy(p), says);
            outOfBounds(out, () -> grid.acquirePartition(p), says);
            outOfBounds(out, () -> grid.requestPartitionCopyAsync(p), says);
            outOfBounds(out, () -> grid.acquirePartitionAsync(p), says);
        }
        outOfBounds(out, () -> grid.layout(2).startingIndexAtThread(2), "thread 2", "2 threads per node");
        outOfBounds(out, () -> grid.layout(2).maxIndexAtThread(-1), "thread -1");

        outOfBounds(out, () -> call(line, "get", 8), l, "index 8", "length 8", "0..7");
        outOfBounds(out, () -> call(line, "get", -1), l, "index -1");
        outOfBounds(out, () -> call(line, "set", 8, value), l, "index 8");
        outOfBounds(out, () -> call(line, "get", 1, 0), l, "(1, 0)", "row 1", "0..0");
        outOfBounds(out, () -> line.partitionOf(9), l, "index 9");

        refused(out, UnsupportedOperationException.class, () -> call(grid, "get", 1), g, "4 rows", "(i, j)");
        refused(out, UnsupportedOperationException.class, () -> call(grid, "set", 1, value), g, "4 rows");
        refused(out, UnsupportedOperationException.class, () -> grid.partitionOf(1), g, "4 rows");
        // (its message names this node, so it is not among the outcomes compared across nodes)
        refused(new ArrayList<>(), IllegalArgumentException.class, () -> grid.layout(0), "0 threads per node");
    }

    private static void refuseNullBuffers(SharedArray grid, List<Outcome> out) {
        String g = "'" + grid.name() + "'";
        Object none = null;
        refused(out, NullPointerException.class, () -> call(grid, "readBlock", 0, 0, 1, 1, none), g, "readBlock");
        refused(out, NullPointerException.class, () -> call(grid, "writeBlock", 0, 0, 1, 1, none), g, "writeBlock");
        refused(out, NullPointerException.class, () -> call(grid, "writeBlockAsync", 0, 0, 1, 1, none), g,
            "writeBlockAsync");
    }

    @Test
    void badNamesAndShapesAreRefusedAsJavaDoesAndAMismatchBetweenNodesAsACumulusException() {
        LocalCluster.run(2, cluster -> {
            ArrayShape shape = ArrayShape.of(4, 4).blocks(2, 2);
            Throwable e = assertThrows(NullPointerException.class, () -> cluster.sharedDoubleArray(null, shape));
            assertTrue(e.getMessage().contains("name is null"), e.getMessage());
            e = assertThrows(NullPointerException.class, () -> cluster.sharedIntArray("no-shape", null));
            assertTrue(e.getMessage().contains("'no-shape'") && e.getMessage().contains("shape is null"),
                e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> cluster.sharedLongArray("", shape));
            assertTrue(e.getMessage().contains("name is empty"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> cluster.sharedFloatArray("x".repeat(5000), shape));
            assertTrue(e.getMessage().contains("5000 bytes"), e.getMessage());

            e = assertThrows(NullPointerException.class, () -> cluster.barrier(null, 1));
            assertTrue(e.getMessage().contains("barrier name is null"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> cluster.barrier("", 1));
            assertTrue(e.getMessage().contains("barrier name is empty"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> cluster.barrier("negative", -1));
            assertTrue(e.getMessage().contains("'negative'") && e.getMessage().contains("-1 threads"),
                e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> cluster.localBarrier("none", 0));
            assertTrue(e.getMessage().contains("'none'") && e.getMessage().contains("at least 1"), e.getMessage());
            e = assertThrows(NullPointerException.class, () -> cluster.sharedLong(null));
            assertTrue(e.getMessage().contains("shared scalar name is null"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> cluster.sharedDouble(""));
            assertTrue(e.getMessage().contains("shared scalar name is empty"), e.getMessage());

            // same name, another element type or shape on another node: the cluster disagrees, not the arguments
            if (cluster.nodeId() == 0) {
                cluster.sharedDoubleArray("clash", shape);
            }
            cluster.barrier();
            if (cluster.nodeId() == 1) {
                e = assertThrows(CumulusException.class, () -> cluster.sharedIntArray("clash", shape));
                assertTrue(e.getMessage().contains("'clash'") && e.getMessage().contains("node 0")
                    && e.getMessage().contains("int[4x4]"), e.getMessage());
                e = assertThrows(CumulusException.class,
                    () -> cluster.sharedDoubleArray("clash", ArrayShape.of(8, 4).blocks(2, 2)));
                assertTrue(e.getMessage().contains("double[8x4]"), e.getMessage());
                e = assertThrows(CumulusException.class,
                    () -> cluster.sharedDoubleArray("clash", shape.distribution(Distribution.BLOCK_CYCLIC)));
                assertTrue(e.getMessage().contains("BLOCK_CYCLIC"), e.getMessage());
            }
        });
    }

    @Test
    void defaultBlocksAreOneBandPerNodeAndTheSameArrayAsTheBlocksTheyResolveTo() {
        LocalCluster.run(3, cluster -> {
            int me = cluster.nodeId();
            // node 0 leaves the blocks to the default, the others give the blocks it resolves to: one array
            SharedLongArray counts = cluster.sharedLongArray("counts",
                me == 0 ? ArrayShape.of(12) : ArrayShape.of(12).blocks(4));
            assertEquals(1, counts.blockRows());
            assertEquals(4, counts.blockCols());
            assertEquals(List.of(0, 1, 2), List.of(counts.homeOf(0), counts.homeOf(1), counts.homeOf(2)));
            assertSame(counts, cluster.sharedLongArray("counts", ArrayShape.of(12)));
            counts.set(4 * me, me + 1);
            cluster.barrier();
            assertEquals(List.of(1L, 2L, 3L), List.of(counts.get(0), counts.get(4), counts.get(8)));

            SharedDoubleArray rows = cluster.sharedDoubleArray("rows", ArrayShape.of(9, 5));
            assertEquals(3, rows.blockRows());
            assertEquals(5, rows.blockCols());
            assertEquals(me, rows.homeOf(me));
            // no size divides 7 evenly in 3: single elements; fewer elements than nodes: one each
            assertEquals(7, cluster.sharedIntArray("prime", ArrayShape.of(7)).partitions());
            assertEquals(2, cluster.sharedIntArray("short", ArrayShape.of(2)).partitions());
            // 10 over 3 nodes: at most 4 per node, the largest that divides 10 is 2
            assertEquals(2, cluster.sharedFloatArray("ten", ArrayShape.of(10, 3)).blockRows());
        });
    }

    // ---------------------------------------------------------------- helpers

    private static ArrayRuntime runtime(Cluster cluster) {
        return ((NodeCluster) cluster).capability(ArrayRuntime.class);
    }

    private static SharedArray create(Cluster cluster, Class<?> type, String name, ArrayShape shape) {
        if (type == double.class) {
            return cluster.sharedDoubleArray(name, shape);
        } else if (type == float.class) {
            return cluster.sharedFloatArray(name, shape);
        } else if (type == long.class) {
            return cluster.sharedLongArray(name, shape);
        }
        return cluster.sharedIntArray(name, shape);
    }

    private static Class<?> elementType(SharedArray array) {
        return array instanceof SharedDoubleArray ? double.class
            : array instanceof SharedFloatArray ? float.class
            : array instanceof SharedLongArray ? long.class : int.class;
    }

    private static Class<?> typedInterface(SharedArray array) {
        return array instanceof SharedDoubleArray ? SharedDoubleArray.class
            : array instanceof SharedFloatArray ? SharedFloatArray.class
            : array instanceof SharedLongArray ? SharedLongArray.class : SharedIntArray.class;
    }

    /**
     * Calls the typed method {@code name} taking {@code args.length} arguments on {@code array} (each typed array
     * has one of a given name and count); rethrows what it throws. A method that returns a future must throw at
     * once for a bad argument, not fail the future later.
     */
    private static Object call(SharedArray array, String name, Object... args) {
        Method method = null;
        for (Method m : typedInterface(array).getMethods()) {
            if (m.getName().equals(name) && m.getParameterCount() == args.length && !m.isBridge()) {
                method = m;
            }
        }
        if (method == null) {
            throw new AssertionError("no " + name + " with " + args.length + " parameters on " + array);
        }
        try {
            Object result = method.invoke(array, args);
            if (result instanceof Future<?> f && f.state() == Future.State.FAILED) {
                throw new AssertionError(name + " returned a failed future instead of throwing", f.exceptionNow());
            }
            return result;
        } catch (InvocationTargetException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw new AssertionError(e.getCause());
        } catch (IllegalAccessException e) {
            throw new AssertionError(e);
        }
    }

    private static void outOfBounds(List<Outcome> out, Executable call, String... fragments) {
        refused(out, IndexOutOfBoundsException.class, call, fragments);
    }

    private static void refused(List<Outcome> out, Class<? extends Throwable> type, Executable call,
                                String... fragments) {
        Throwable e;
        try {
            call.execute();
            fail("expected " + type.getSimpleName() + " with " + String.join(", ", fragments));
            return;
        } catch (Throwable t) {
            e = t;
        }
        if (!type.isInstance(e)) {
            throw new AssertionError("expected " + type.getSimpleName() + ", got " + e, e);
        }
        for (String f : fragments) {
            assertTrue(e.getMessage().contains(f), "'" + f + "' missing from: " + e.getMessage());
        }
        out.add(new Outcome(e.getClass().getName(), e.getMessage()));
    }
}
