package dev.cumulus.internal.rpc;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.codec.RemoteRef;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.Method;
import java.nio.ByteOrder;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@code moved} answer carries the call message back for the caller to send on; the caller sends only its own call
 * on, never another object's or method's that the answer names instead.
 */
@Timeout(30)
class MovedAnswerTest {
    public interface Echo {
        String echo(String s);
    }

    public interface Vault {
        void wipe();
    }

    private final BlockingQueue<byte[]> calls = new LinkedBlockingQueue<>();
    private final RpcEngine caller = new RpcEngine(0, 2, (to, buf, off, len) -> {
        byte[] bytes = new byte[len];
        buf.getBytes(off, bytes);
        calls.add(bytes);
    }, getClass().getClassLoader(), 0);

    @AfterEach
    void close() {
        caller.close();
    }

    @Test
    void aMovedAnswerThatNamesAnotherObjectOrMethodIsRefused() throws Exception {
        Method echo = Echo.class.getMethod("echo", String.class);
        Method wipe = Vault.class.getMethod("wipe");
        long echoId = ExportTable.objectId(1, 16);
        long vaultId = ExportTable.objectId(1, 17);
        PendingCall pending = caller.start(new RemoteRef(1, echoId, Echo.class.getName()), "echo", echo,
            MethodIds.idOf(echo), new Object[] {"hi"}, false, null);
        assertNotNull(calls.poll(10, TimeUnit.SECONDS));

        ExpandableArrayBuffer forged = new ExpandableArrayBuffer(128);
        new CallHeaderFlyweight().wrap(forged, 0).write(99, vaultId, MethodIds.idOf(wipe), 0, 0);
        int messageLength = CallHeaderFlyweight.LENGTH;
        ExpandableArrayBuffer answer = new ExpandableArrayBuffer(256);
        new ReplyHeaderFlyweight().wrap(answer, 0).write(ReplyHeaderFlyweight.MOVED, pending.callId, 0);
        answer.putInt(ReplyHeaderFlyweight.LENGTH, 1, ByteOrder.LITTLE_ENDIAN);
        answer.putBytes(ReplyHeaderFlyweight.LENGTH + Integer.BYTES, forged, 0, messageLength);
        int length = ReplyHeaderFlyweight.LENGTH + Integer.BYTES + messageLength;
        caller.onData(1, new UnsafeBuffer(answer.byteArray(), 0, length), 0, length);

        CumulusException refused = assertThrows(CumulusException.class, () -> caller.await(pending, 2_000_000_000L));
        byte[] sentOn = calls.poll();
        assertNull(sentOn == null ? null : "objectId " + new CallHeaderFlyweight()
                .wrap(new UnsafeBuffer(sentOn), 0).objectId(),
            "the caller sent the call the answer named (Vault.wipe) instead of its own (Echo.echo)");
        assertTrue(refused.getMessage().contains("moved"), refused.getMessage());
    }
}
