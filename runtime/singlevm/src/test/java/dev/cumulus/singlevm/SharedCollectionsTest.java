package dev.cumulus.singlevm;

import dev.cumulus.SingleVm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** On one JVM without the agent, {@link SingleVm}'s collections and executor are ordinary ones. */
@Timeout(60)
class SharedCollectionsTest {
    @Test
    void theListBehavesAsAnArrayList() {
        List<Integer> list = SingleVm.list();
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            list.add(i);
            expected.add(i);
        }
        list.add(3, -1);
        expected.add(3, -1);
        assertEquals(expected.remove(10), list.remove(10));
        assertEquals(expected.set(0, 99), list.set(0, 99));
        assertEquals(expected, list);
        assertEquals(expected.hashCode(), list.hashCode());
        assertThrows(IndexOutOfBoundsException.class, () -> list.get(list.size()));
        list.clear();
        assertTrue(list.isEmpty());
    }

    @Test
    void theMapBehavesAsAHashMap() {
        Map<String, Integer> map = SingleVm.map();
        Map<String, Integer> expected = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            assertEquals(expected.put("k" + i % 150, i), map.put("k" + i % 150, i));
        }
        for (int i = 0; i < 150; i += 3) {
            assertEquals(expected.remove("k" + i), map.remove("k" + i));
        }
        assertNull(map.remove("absent"));
        assertEquals(expected, map);
        assertEquals(expected.size(), map.size());
        assertEquals(expected.get("k7"), map.get("k7"));
        assertTrue(map.containsKey("k8") && !map.containsKey("k9"));
        map.entrySet().removeIf(e -> e.getValue() % 2 == 0);
        expected.entrySet().removeIf(e -> e.getValue() % 2 == 0);
        assertEquals(expected, map);
    }

    @Test
    void thePriorityQueuePollsInOrder() {
        Queue<Integer> natural = SingleVm.priorityQueue();
        Queue<Integer> reversed = SingleVm.priorityQueue(Comparator.reverseOrder());
        for (int i = 0; i < 100; i++) {
            natural.add(i * 37 % 100);
            reversed.add(i * 37 % 100);
        }
        assertEquals(0, natural.peek());
        for (int i = 0; i < 100; i++) {
            assertEquals(i, natural.poll());
            assertEquals(99 - i, reversed.poll());
        }
        assertNull(natural.poll());
        assertThrows(NullPointerException.class, () -> natural.add(null));
    }

    @Test
    void theExecutorRunsTasksReturnsResultsAndReportsFailures() throws Exception {
        ExecutorService pool = SingleVm.executor(3);
        List<Future<Integer>> futures = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            int n = i;
            futures.add(pool.submit(() -> n * n));
        }
        int sum = 0;
        for (Future<Integer> f : futures) {
            sum += f.get();
        }
        assertEquals(8555, sum);
        Callable<Integer> boom = () -> {
            throw new IllegalStateException("boom");
        };
        ExecutionException e = assertThrows(ExecutionException.class, () -> pool.submit(boom).get());
        assertEquals(IllegalStateException.class, e.getCause().getClass(), "the task's exception is the cause");
        assertEquals("boom", e.getCause().getMessage());
        assertEquals("java.lang.IllegalStateException: boom", e.getMessage(), "as FutureTask words it");
        assertEquals(List.of(1, 2), pool.invokeAll(List.of(() -> 1, () -> 2)).stream().map(f -> {
            try {
                return f.get();
            } catch (Exception x) {
                throw new AssertionError(x);
            }
        }).toList());
        assertEquals(5, pool.invokeAny(List.of(boom, () -> 5)));
        assertThrows(ExecutionException.class, () -> pool.invokeAny(List.of(boom, boom)));
        pool.shutdown();
        assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
        assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
        assertTrue(pool.isTerminated());
    }

    @Test
    void anExecutorNeedsAWorker() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SingleVm.executor(0));
        assertEquals("an executor needs at least one worker, got 0", e.getMessage());
    }
}
