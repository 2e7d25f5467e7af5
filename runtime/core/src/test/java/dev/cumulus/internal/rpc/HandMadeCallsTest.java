package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.CodecLimits;
import dev.cumulus.internal.codec.ReferenceHandler;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.codec.ValueCodec;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A hand-made call ({@code cumulus bench hostile}'s) travels as any call: bytes that encode the arguments get the method's result; bytes that do not
 * are refused by the callee with an error answer, thrown at the caller; the callee serves on.
 */
@Timeout(30)
class HandMadeCallsTest {
    public interface Echo {
        String echo(String s);
    }

    private final ClassLoader loader = getClass().getClassLoader();
    private final RpcEngine[] engines = new RpcEngine[2];

    @AfterEach
    void close() {
        for (RpcEngine e : engines) {
            e.close();
        }
    }

    @Test
    void goodBytesAreAnsweredBadBytesAreRefusedWithTheCalleesErrorAndTheCalleeServesOn() throws Throwable {
        engines[0] = new RpcEngine(0, 2, (to, buf, off, len) -> engines[1].onData(0, buf, off, len), loader, 0);
        engines[1] = new RpcEngine(1, 2, (to, buf, off, len) -> engines[0].onData(1, buf, off, len), loader, 0);
        for (RpcEngine e : engines) {
            e.scheduler(TestSchedulers.RUN_NOW);
        }
        RemoteRef ref = engines[1].export((Echo) s -> s + "!", Echo.class, "echo");
        Echo proxy = engines[0].proxy(ref, Echo.class, "echo");
        Method echo = Echo.class.getMethod("echo", String.class);

        RemoteInvocationHandler handler = (RemoteInvocationHandler) Proxy.getInvocationHandler(proxy);
        assertEquals("hi!", handler.invokeHandMade(echo, encoded("hi"), 10_000_000_000L));
        CumulusException refused = assertThrows(CumulusException.class,
            () -> handler.invokeHandMade(echo, new byte[] {99}, 10_000_000_000L));
        assertTrue(refused.getMessage().contains("unknown tag 99"), refused.getMessage());
        assertEquals("still!", proxy.echo("still"));
    }

    private byte[] encoded(String value) {
        ExpandableArrayBuffer buffer = new ExpandableArrayBuffer();
        int end = new ValueCodec(ReferenceHandler.NONE, loader, CodecLimits.DEFAULTS).write(buffer, 0, value, "a test");
        byte[] bytes = new byte[end];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
