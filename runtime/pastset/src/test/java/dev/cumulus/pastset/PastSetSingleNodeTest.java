package dev.cumulus.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.LocalCluster;
import dev.cumulus.internal.pastset.PastSetRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static dev.cumulus.pastset.PastSetTestSupport.awaitCondition;
import static dev.cumulus.pastset.PastSetTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PastSet semantics on one node (every element local: the fast path). */
@Timeout(60)
class PastSetSingleNodeTest {
    static final Template ROW = Template.of("row", int.class, double[].class);

    @Test
    void moveAppendsAndObserveReturnsTheOldestUnobservedTupleWithoutRemovingIt() {
        LocalCluster.run(1, cluster -> {
            Element row = cluster.pastSet().enter(ROW);
            assertTrue(row.isLocal());
            assertEquals(-1, row.last());
            assertEquals(0, row.first());
            assertEquals(0, row.move(1, new double[] {1.0}));
            assertEquals(1, row.move(2, new double[] {2.0}));
            assertEquals(2, row.move(3, new double[] {3.0}));
            assertEquals(2, row.last());
            assertEquals(0, row.first());

            Tuple t = row.observe();
            assertEquals(0, t.index());
            assertEquals(1, t.getInt(0));
            assertArrayEquals(new double[] {1.0}, t.getDoubles(1));
            assertEquals(1, row.first(), "First moved past the observed tuple");
            assertEquals(2, row.observe().getInt(0));
            assertEquals(3, row.observe().getInt(0));
            assertEquals(3, row.first(), "all observed: First = Last + 1");

            Tuple again = row.observe(0);
            assertEquals(0, again.index());
            assertEquals(1, again.getInt(0), "observed tuples stay in the log and can be read again");
            assertEquals(3, row.first(), "observe(index) marks nothing");
        });
    }

    @Test
    void tuplesAreKeptByValue() {
        LocalCluster.run(1, cluster -> {
            Element row = cluster.pastSet().enter(ROW);
            double[] data = {1, 2, 3};
            row.move(7, data);
            data[0] = 99;
            Tuple t = row.observe();
            assertArrayEquals(new double[] {1, 2, 3}, t.getDoubles(1));
            t.getDoubles(1)[1] = -1;
            assertArrayEquals(new double[] {1, 2, 3}, row.observe(0).getDoubles(1));
        });
    }

    @Test
    void observeBlocksUntilAMoveArrives() {
        LocalCluster.run(1, cluster -> {
            Element e = cluster.pastSet().enter("wake", String.class);
            CompletableFuture<Tuple> pending = e.observeAsync();
            PastSetRuntime rt = runtime(cluster);
            awaitCondition(() -> rt.waiting(Placement.FIRST_TOUCH, e.template()) == 1);
            assertFalse(pending.isDone());
            e.move("hello");
            assertEquals("hello", pending.join().getString(0));
        });
    }

    @Test
    void observersShareTheElementsFirstPointer() {
        LocalCluster.run(1, cluster -> {
            Element e = cluster.pastSet().enter("queue", int.class);
            int count = 200;
            List<CompletableFuture<List<Integer>>> readers = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                readers.add(CompletableFuture.supplyAsync(() -> {
                    List<Integer> got = new ArrayList<>();
                    for (int i = 0; i < count / 4; i++) {
                        got.add(e.observe().getInt(0));
                    }
                    return got;
                }, runnable -> Thread.ofVirtual().start(runnable)));
            }
            for (int i = 0; i < count; i++) {
                e.move(i);
            }
            List<Integer> all = new ArrayList<>();
            readers.forEach(f -> all.addAll(f.join()));
            all.sort(Integer::compare);
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                expected.add(i);
            }
            assertEquals(expected, all, "every tuple was observed exactly once, by one of the observers");
        });
    }

    @Test
    void deltaBoundsTheUnobservedTuplesAndBlocksMoves() {
        LocalCluster.run(1, cluster -> {
            Element e = cluster.pastSet().enter("bounded", int.class);
            PastSetRuntime rt = runtime(cluster);
            assertEquals(Element.UNBOUNDED, e.delta());
            e.delta(2);
            assertEquals(2, e.delta());
            e.move(0);
            e.move(1);
            CompletableFuture<Long> third = e.moveAsync(2);
            awaitCondition(() -> rt.waiting(Placement.FIRST_TOUCH, e.template()) == 1);
            assertFalse(third.isDone(), "a move beyond DeltaValue blocks");
            assertEquals(1, e.last());
            assertEquals(0, e.observe().getInt(0));
            assertEquals(2L, third.join(), "an observe made room");
            assertEquals(2, e.last() - e.first() + 1);
            e.delta(5);
            e.move(3);
            e.move(4);
            e.move(5);
            assertEquals(5, e.last() - e.first() + 1);
        });
    }

    @Test
    void truncateDropsOlderTuplesForGood() {
        LocalCluster.run(1, cluster -> {
            Element e = cluster.pastSet().enter("log", long.class);
            for (long i = 0; i < 10; i++) {
                e.move(i * 10);
            }
            e.observe();
            e.truncate(4);
            assertEquals(4, e.first(), "First moves up to the truncation point");
            assertEquals(40L, e.observe().get(0));
            CumulusException gone = assertThrows(CumulusException.class, () -> e.observe(2));
            assertTrue(gone.getMessage().contains("truncated") && gone.getMessage().contains("oldest tuple kept is 4"),
                gone.getMessage());
            assertEquals(90L, e.observe(9).get(0));
            e.truncate(2);
            assertThrows(CumulusException.class, () -> e.truncate(11));
            e.truncate(10);
            assertEquals(10, e.first());
            assertEquals(9, e.last());
        });
    }

    @Test
    void badInputFailsAtTheCallerWithClearMessagesAndStoresNothing() {
        LocalCluster.run(1, cluster -> {
            Element row = cluster.pastSet().enter(ROW);
            CumulusException wrongType = assertThrows(CumulusException.class, () -> row.move(1, new int[] {1}));
            assertTrue(wrongType.getMessage().contains("double[]") && wrongType.getMessage().contains("int[]")
                && wrongType.getMessage().contains("row(int,double[])"), wrongType.getMessage());
            CumulusException wrongCount = assertThrows(CumulusException.class, () -> row.move(1));
            assertTrue(wrongCount.getMessage().contains("expected 2 fields"), wrongCount.getMessage());
            CumulusException nullPrimitive = assertThrows(CumulusException.class,
                () -> row.move(null, new double[0]));
            assertTrue(nullPrimitive.getMessage().contains("must be int but was null"), nullPrimitive.getMessage());
            CompletableFuture<Long> failed = row.moveAsync("x", new double[0]);
            assertTrue(failed.isCompletedExceptionally(), "the async form fails at once, nothing sent");
            CumulusException reported = assertThrows(CumulusException.class, row::last);
            assertTrue(reported.getMessage().contains("an earlier moveAsync"), "and at the thread's next operation: "
                + reported.getMessage());
            assertEquals(-1, row.last(), "nothing was stored");

            CumulusException badDelta = assertThrows(CumulusException.class, () -> row.delta(0));
            assertTrue(badDelta.getMessage().contains("at least 1"), badDelta.getMessage());
            CumulusException notTransferable = assertThrows(CumulusException.class,
                () -> cluster.pastSet().enter("obj", Object.class).move(new Thread()));
            assertTrue(notTransferable.getMessage().contains("Thread"), notTransferable.getMessage());
        });
    }

    @Test
    void tagsSeparateElementsOfTheSameTypes() {
        LocalCluster.run(1, cluster -> {
            PastSet space = cluster.pastSet();
            Element a = space.enter("a", int.class);
            Element b = space.enter("b", int.class);
            Element a2 = space.enter(Template.of("a", int.class));
            a.move(1);
            assertEquals(-1, b.last());
            assertEquals(0, a2.last(), "identical templates name the same element");
            assertNotEquals(Template.of("a", int.class), Template.of("b", int.class));
            assertEquals(Template.of("a", int.class), Template.of("a", int.class));
        });
    }

    @Test
    void asyncFormsComplete() {
        LocalCluster.run(1, cluster -> {
            Element e = cluster.pastSet().enter("async", String.class);
            CompletableFuture<Tuple> o = e.observeAsync();
            assertEquals(0L, e.moveAsync("a").join());
            assertEquals("a", o.join().getString(0));
            CompletableFuture<Tuple> later = e.observeAsync(1);
            e.move("b");
            assertEquals("b", later.join().getString(0));
        });
    }

    @Test
    void localOperationsTakeTheFastPathAndItIsFast() {
        LocalCluster.run(1, cluster -> {
            PastSetRuntime rt = runtime(cluster);
            Element small = cluster.pastSet().enter("fast", int.class);
            Element array = cluster.pastSet().enter("fast-array", double[].class);
            long remoteBefore = rt.remoteOperations();
            double[] payload = new double[16];
            int warm = 20_000;
            int n = 200_000;
            for (int i = 0; i < warm; i++) {
                small.move(i);
                small.observe();
                array.move(payload);
                array.observe();
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                small.move(i);
                small.observe();
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                array.move(payload);
                array.observe();
            }
            long t2 = System.nanoTime();
            assertEquals(remoteBefore, rt.remoteOperations(), "local elements never send a message");
            assertTrue(rt.localOperations() >= 4L * (n + warm));
            System.out.printf("PastSet local fast path: move+observe of (int) %.0f ns, of (double[16]) %.0f ns%n",
                (t1 - t0) / (double) n, (t2 - t1) / (double) n);
        });
    }

    /** A redefinition that throws in move. */
    public static final class Exploding implements Semantics.Redefinition {
        @Override
        public long move(Semantics.Context element, Semantics.Caller caller, Object[] fields) {
            throw new IllegalStateException("kaboom");
        }

        @Override
        public long observe(Semantics.Context element, Semantics.Caller caller) {
            return Semantics.BLOCK;
        }
    }

    /** Keeps only the largest value ever moved; observe always returns it. */
    public static final class KeepMax implements Semantics.Redefinition {
        private long maxIndex = -1;
        private int max = Integer.MIN_VALUE;

        @Override
        public long move(Semantics.Context element, Semantics.Caller caller, Object[] fields) {
            int v = (Integer) fields[0];
            if (v > max) {
                max = v;
                maxIndex = element.append(v);
            }
            return maxIndex;
        }

        @Override
        public long observe(Semantics.Context element, Semantics.Caller caller) {
            return maxIndex < 0 ? Semantics.BLOCK : maxIndex;
        }
    }

    @Test
    void customSemanticsAreLoadedByNameAndBrokenOnesReportTheirError() {
        LocalCluster.run(1, cluster -> {
            PastSet space = cluster.pastSet();
            Template maxT = Template.of("max", int.class);
            space.redefine(maxT, Semantics.custom(KeepMax.class));
            Element max = space.enter(maxT);
            max.move(3);
            max.move(1);
            max.move(7);
            assertEquals(7, max.observe().getInt(0));
            assertEquals(7, max.observe().getInt(0));

            Template boomT = Template.of("boom", int.class);
            space.redefine(boomT, Semantics.custom(Exploding.class.getName()));
            Element boom = space.enter(boomT);
            CompletableFuture<Tuple> blocked = boom.observeAsync();
            CumulusException thrown = assertThrows(CumulusException.class, () -> boom.move(1));
            assertTrue(thrown.getMessage().contains("Exploding") && thrown.getMessage().contains("kaboom"),
                thrown.getMessage());
            CompletionException failedObserve = assertThrows(CompletionException.class, blocked::join);
            CumulusException woken = assertInstanceOf(CumulusException.class, failedObserve.getCause());
            assertTrue(woken.getMessage().contains("broken"), woken.getMessage());
            assertThrows(CumulusException.class, () -> boom.move(2), "the element stays broken");

            Template missingT = Template.of("missing", int.class);
            CumulusException missing = assertThrows(CumulusException.class,
                () -> space.redefine(missingT, Semantics.custom("com.example.NoSuchSemantics")));
            assertTrue(missing.getMessage().contains("com.example.NoSuchSemantics"), missing.getMessage());
            CumulusException reported = assertThrows(CumulusException.class, () -> space.enter(missingT).move(1));
            assertTrue(reported.getMessage().contains("NoSuchSemantics"), reported.getMessage());

            Element other = space.enter("fine", int.class);
            other.move(5);
            assertEquals(5, other.observe().getInt(0), "the space keeps working");

            space.redefine(boomT, Semantics.standard());
            boom.move(9);
            assertEquals(9, boom.observe().getInt(0), "redefining repairs a broken element");
        });
    }

    @Test
    void reductionsOnOneNodeCombineNContributionsPerRound() {
        LocalCluster.run(1, cluster -> {
            PastSet space = cluster.pastSet();
            Template sumT = Template.of("sum", double[].class);
            space.redefine(sumT, Semantics.sum(3));
            Element sum = space.enter(sumT);
            assertEquals(-1, sum.move(new double[] {1, 2}));
            sum.move(new double[] {10, 20});
            CompletableFuture<Tuple> result = sum.observeAsync();
            long idx = sum.move(new double[] {100, 200});
            assertEquals(0, idx);
            assertArrayEquals(new double[] {111, 222}, result.join().getDoubles(0));
            CumulusException bad = assertThrows(CumulusException.class, () -> Semantics.sum(0));
            assertTrue(bad.getMessage().contains("at least 1"));
        });
    }

    @Test
    void anElementOfANodeThatClosedItsClusterRefusesEveryOperationSayingWhy() {
        Element[] kept = new Element[1];
        LocalCluster.run(1, cluster -> {
            kept[0] = cluster.pastSet().enter(ROW);
            kept[0].move(1, new double[] {1.0});
        });
        Element row = kept[0];
        List<org.junit.jupiter.api.function.Executable> uses = List.of(() -> row.move(2, new double[] {2.0}),
            row::observe, () -> row.observe(0), row::first, () -> row.moveAsync(3, new double[] {3.0}),
            () -> row.truncate(0));
        for (org.junit.jupiter.api.function.Executable use : uses) {
            CumulusException e = assertThrows(CumulusException.class, use);
            assertTrue(e.getMessage().contains("has left the cluster (Cluster.close() was called"), e.getMessage());
        }
    }
}
