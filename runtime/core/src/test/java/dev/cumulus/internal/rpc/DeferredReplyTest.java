package dev.cumulus.internal.rpc;

import dev.cumulus.AsyncTicket;
import dev.cumulus.LocalCluster;
import dev.cumulus.internal.codec.RemoteRef;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A served method may return before its reply is ready and have another thread send it (PastSet's parked observe). */
@Timeout(60)
class DeferredReplyTest {

    public interface Mailbox {
        /** Waits for the next put, holding no thread on the server. */
        @DefersReply
        String take();

        void put(String letter);

        /** Its reply is an exception, sent later by another thread. */
        @DefersReply
        int failLater();
    }

    static final class MailboxImpl implements Mailbox {
        final ConcurrentLinkedQueue<DeferredReply> takers = new ConcurrentLinkedQueue<>();
        final AtomicBoolean takeReturnedBeforePut = new AtomicBoolean();

        @Override
        public String take() {
            takers.add(DeferredReply.defer());
            takeReturnedBeforePut.set(true);
            return "ignored: the deferred reply carries the result";
        }

        @Override
        public void put(String letter) {
            DeferredReply taker = takers.poll();
            if (taker != null) {
                taker.complete(letter);
                taker.complete("a second outcome is ignored");
            }
        }

        @Override
        public int failLater() {
            DeferredReply reply = DeferredReply.defer();
            Thread.ofPlatform().start(() -> reply.fail(new IllegalArgumentException("refused later")));
            return 0;
        }
    }

    @Test
    void aDeferredReplyIsSentByTheThreadThatReadiesIt() {
        MailboxImpl box = new MailboxImpl();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 1) {
                cluster.export(box, Mailbox.class, "box");
            }
            cluster.barrier();
            if (cluster.nodeId() == 0) {
                Mailbox remote = cluster.lookup("box", Mailbox.class);
                Mailbox ticket = AsyncTicket.newTicket(remote);
                ticket.take();
                while (!box.takeReturnedBeforePut.get()) {
                    Thread.onSpinWait(); // the server method returned, the caller still waits
                }
                assertFalse(AsyncTicket.future(ticket).isDone(), "the reply must wait for the put");
                remote.put("hello");
                assertEquals("hello", AsyncTicket.getResult(ticket));
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, remote::failLater);
                assertEquals("refused later", e.getMessage());
            }
            cluster.barrier();
        });
    }

    @Test
    void deferringOutsideARemoteCallIsRefused() {
        assertFalse(DeferredReply.servingRemoteCall());
        assertThrows(IllegalStateException.class, DeferredReply::defer);
    }

    @Test
    void aOneWayCallThatDefersItsReplySendsNothingBackAndReportsItsFailureWhereItRan() throws Exception {
        AtomicInteger messagesToCaller = new AtomicInteger();
        List<String> oneWayFailures = new CopyOnWriteArrayList<>();
        RpcEngine[] engines = new RpcEngine[2];
        ClassLoader loader = getClass().getClassLoader();
        engines[0] = new RpcEngine(0, 2, (to, buf, off, len) -> engines[1].onData(0, buf, off, len), loader, 0);
        engines[1] = new RpcEngine(1, 2, (to, buf, off, len) -> {
            messagesToCaller.incrementAndGet();
            engines[0].onData(1, buf, off, len);
        }, loader, 0);
        for (RpcEngine e : engines) {
            e.scheduler(TestSchedulers.RUN_NOW);
        }
        engines[1].onOneWayFailure(oneWayFailures::add);
        MailboxImpl box = new MailboxImpl();
        RemoteRef ref = engines[1].export(box, Mailbox.class, "box");

        engines[0].sendOneWay(ref, "box", Mailbox.class.getMethod("take"), new Object[0]);
        box.takers.poll().complete("nobody reads this");
        engines[0].sendOneWay(ref, "box", Mailbox.class.getMethod("failLater"), new Object[0]);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (oneWayFailures.isEmpty() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }

        assertEquals(1, oneWayFailures.size(), String.valueOf(oneWayFailures));
        assertTrue(oneWayFailures.getFirst().contains("refused later"), oneWayFailures.getFirst());
        assertEquals(0, messagesToCaller.get(), "a one-way call's caller reads no reply, so none may be sent");
        engines[0].close();
        engines[1].close();
    }
}
