package dev.cumulus.internal.singlevm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The lock-free table of a node's array copies: every added copy is found by identity, nothing else is. */
@Timeout(60)
class CopyTableTest {
    private static Copy copyOf(Object array, long id) {
        return new Copy(Copy.Kind.ARRAY, id, array, null, 1, java.lang.reflect.Array.getLength(array));
    }

    @Test
    void findsEveryCopyAcrossGrowthAndNoEqualButDistinctArray() {
        CopyTable table = new CopyTable();
        List<Copy> added = new ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            Copy c = copyOf(new int[] {i}, i + 1);
            table.add(c);
            added.add(c);
        }
        for (Copy c : added) {
            assertSame(c, table.get(c.target));
            assertTrue(CopyTable.mayHold(c.target), "the filter never denies a copy");
        }
        assertNull(table.get(new int[] {0}), "an equal array that is not the copy");
        assertNull(table.get(new Object()));
    }

    @Test
    void aReaderFindsWhatAnotherThreadAddedBeforeHandingItOver() throws Exception {
        CopyTable table = new CopyTable();
        int n = 20_000;
        Object[] handed = new Object[n];
        CountDownLatch done = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread reader = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < n; i++) {
                    Object a;
                    synchronized (handed) {
                        while ((a = handed[i]) == null) {
                            handed.wait();
                        }
                    }
                    if (table.get(a) == null) {
                        throw new AssertionError("copy " + i + " not found after it was handed over");
                    }
                }
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                done.countDown();
            }
        });
        for (int i = 0; i < n; i++) {
            Copy c = copyOf(new long[1], i + 1);
            table.add(c);
            synchronized (handed) {
                handed[i] = c.target;
                handed.notifyAll();
            }
        }
        done.await();
        reader.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }
}
