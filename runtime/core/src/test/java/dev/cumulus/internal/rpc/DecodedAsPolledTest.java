package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.BytesView;
import dev.cumulus.internal.codec.RemoteRef;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Simple values decoded by the polling thread as they come (a caller's own reply, a call's one argument) and
 * everything else decoded later give the same results, whichever thread polls.
 */
@Timeout(30)
class DecodedAsPolledTest {
    public record Point(int x, int y) {
    }

    public interface Values {
        byte[] echo(byte[] bytes);

        Long number(Long x);

        boolean not(boolean b);

        Object nothing();

        String text(String s);

        Point moved(Point p);

        int sum(int a, int b);

        int size(BytesView bytes);

        long fails(long x);
    }

    public static final class ValuesImpl implements Values {
        @Override
        public byte[] echo(byte[] bytes) {
            return bytes;
        }

        @Override
        public Long number(Long x) {
            return x == null ? null : x + 1;
        }

        @Override
        public boolean not(boolean b) {
            return !b;
        }

        @Override
        public Object nothing() {
            return null;
        }

        @Override
        public String text(String s) {
            return s + "!";
        }

        @Override
        public Point moved(Point p) {
            return new Point(p.x() + 1, p.y() + 1);
        }

        @Override
        public int sum(int a, int b) {
            return a + b;
        }

        @Override
        public int size(BytesView bytes) {
            return bytes.length();
        }

        @Override
        public long fails(long x) {
            throw new IllegalArgumentException("no " + x);
        }
    }

    private final ExecutorService elsewhere = Executors.newSingleThreadExecutor();
    private final RpcEngine[] engines = new RpcEngine[2];

    @AfterEach
    void stop() {
        elsewhere.shutdownNow();
        for (RpcEngine e : engines) {
            if (e != null) {
                e.close();
            }
        }
    }

    /**
     * Two engines wired directly. The server runs each call as it arrives; its reply reaches the caller on the
     * caller's own thread ({@code repliesElsewhere} false: the reply is decoded as it is polled) or on another thread
     * (the caller decodes it as before).
     */
    private Values connect(boolean repliesElsewhere) {
        ClassLoader loader = getClass().getClassLoader();
        engines[0] = new RpcEngine(0, 2, (to, buf, off, len) -> engines[1].onData(0, buf, off, len), loader, 0);
        engines[1] = new RpcEngine(1, 2, (to, buf, off, len) -> {
            if (!repliesElsewhere) {
                engines[0].onData(1, buf, off, len);
                return;
            }
            byte[] copy = new byte[len];
            buf.getBytes(off, copy);
            elsewhere.execute(() -> engines[0].onData(1, new UnsafeBuffer(copy), 0, len));
        }, loader, 0);
        engines[1].scheduler(TestSchedulers.RUN_NOW);
        RemoteRef ref = engines[1].export(new ValuesImpl(), Values.class, "values");
        return engines[0].proxy(ref, Values.class, "values");
    }

    private static void exerciseEveryKind(Values values) {
        byte[] bytes = {1, 2, 3};
        assertArrayEquals(bytes, values.echo(bytes));
        assertArrayEquals(new byte[0], values.echo(new byte[0]));
        assertNull(values.echo(null));
        assertEquals(8L, values.number(7L));
        assertNull(values.number(null));
        assertFalse(values.not(true));
        assertNull(values.nothing());
        assertEquals("a!", values.text("a"));
        assertEquals(new Point(2, 3), values.moved(new Point(1, 2)));
        assertEquals(5, values.sum(2, 3));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> values.fails(4));
        assertEquals("no 4", e.getMessage());
    }

    @Test
    void repliesPolledOnTheCallersOwnThreadGiveTheSameResults() {
        exerciseEveryKind(connect(false));
    }

    @Test
    void repliesPolledByAnotherThreadGiveTheSameResults() {
        exerciseEveryKind(connect(true));
    }

    @Test
    void aBytesViewParameterStillGetsAViewOfACopyThatOutlivesThePoll() throws Throwable {
        Values values = connect(false);
        RemoteInvocationHandler handler = (RemoteInvocationHandler) Proxy.getInvocationHandler(values);
        // a caller sends a byte[] for it, as the shared arrays do
        assertEquals(3, handler.invoke(values, Values.class.getMethod("size", BytesView.class),
            new Object[] {new byte[] {9, 9, 9}}));
    }

    @Test
    void anAsynchronousCallsSimpleResultCompletesItsFuture() throws Exception {
        Values values = connect(false);
        RemoteInvocationHandler handler = (RemoteInvocationHandler) Proxy.getInvocationHandler(values);
        CompletableFuture<Object> result = handler.invokeAsync(Values.class.getMethod("number", Long.class),
            new Object[] {41L});
        assertEquals(42L, result.get(10, TimeUnit.SECONDS));
    }
}
