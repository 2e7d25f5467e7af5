package dev.cumulus.internal.rpc;

import dev.cumulus.AsyncTicket;
import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.Remote;
import dev.cumulus.RemoteCallException;
import dev.cumulus.RemoteTimeoutException;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.sched.Scheduler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Asynchronous calls between two engines wired to each other (every call of the server runs on a thread of its own,
 * so answers come back in any order): each future gets its own call's result or exception, off the thread that
 * delivered the answer; a failed node fails every outstanding future; a timeout fails one.
 */
@Timeout(60)
class AsyncCallsTest {
    public interface Squarer {
        long square(int x) throws IOException;

        void nothing();
    }

    static final class SquarerImpl implements Squarer {
        @Override
        public long square(int x) throws IOException {
            if (x < 0) {
                throw new IllegalArgumentException("negative: " + x);
            }
            if (x == 13) {
                throw new IOException("thirteen");
            }
            return (long) x * x;
        }

        @Override
        public void nothing() {
        }
    }

    private final List<RpcEngine> engines = new ArrayList<>();

    @AfterEach
    void close() {
        engines.forEach(RpcEngine::close);
    }

    /** A caller (node 0) and a server (node 1) that answers every call on a thread of its own. */
    private Squarer connected(Set<Thread> deliveringThreads) {
        ClassLoader loader = getClass().getClassLoader();
        RpcEngine[] e = new RpcEngine[2];
        e[0] = new RpcEngine(0, 2, (to, buf, off, len) -> e[1].onData(0, buf, off, len), loader, 0);
        e[1] = new RpcEngine(1, 2, (to, buf, off, len) -> {
            deliveringThreads.add(Thread.currentThread());
            e[0].onData(1, buf, off, len);
        }, loader, 0);
        for (RpcEngine engine : e) {
            engine.scheduler(Scheduler.NONE);
            engines.add(engine);
        }
        RemoteRef ref = e[1].export(new SquarerImpl(), Squarer.class, "squarer");
        return e[0].proxy(ref, Squarer.class, "squarer");
    }

    @Test
    void manyOutstandingCallsEachGetTheirOwnResultOffTheDeliveringThread() throws Exception {
        Set<Thread> delivering = ConcurrentHashMap.newKeySet();
        Squarer squarer = connected(delivering);
        Set<Thread> completing = ConcurrentHashMap.newKeySet();
        int n = 3000;
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        List<Squarer> tickets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int x = 100 + i; // clear of 13 and of negative numbers, which throw
            if (i % 2 == 0) {
                futures.add(Remote.async(squarer, s -> s.square(x)));
            } else {
                Squarer ticket = AsyncTicket.newTicket(squarer);
                ticket.square(x);
                tickets.add(ticket);
                futures.add(AsyncTicket.future(ticket).thenApply(v -> (Long) v));
            }
            futures.getLast().whenComplete((v, t) -> completing.add(Thread.currentThread()));
        }
        for (int i = 0; i < n; i++) {
            long x = 100 + i;
            assertEquals(x * x, futures.get(i).get(30, TimeUnit.SECONDS), "call " + i);
        }
        for (int i = 0; i < tickets.size(); i++) {
            long x = 100 + 2L * i + 1;
            assertEquals(x * x, (long) AsyncTicket.getResult(tickets.get(i)), "ticket " + i);
        }
        completing.retainAll(delivering);
        assertEquals(Set.of(), completing, "a callback ran on the thread that delivered an answer");
    }

    @Test
    void exceptionsArriveAsTheMethodThrewThem() throws Exception {
        Squarer squarer = connected(ConcurrentHashMap.newKeySet());
        CompletableFuture<Long> unchecked = Remote.async(squarer, s -> s.square(-2));
        CompletableFuture<Long> checked = Remote.async(squarer, s -> s.square(13));
        ExecutionException u = assertThrows(ExecutionException.class, () -> unchecked.get(30, TimeUnit.SECONDS));
        assertInstanceOf(IllegalArgumentException.class, u.getCause());
        assertEquals("negative: -2", u.getCause().getMessage());
        ExecutionException c = assertThrows(ExecutionException.class, () -> checked.get(30, TimeUnit.SECONDS));
        assertInstanceOf(IOException.class, c.getCause());
        Squarer ticket = AsyncTicket.newTicket(squarer);
        ticket.square(13);
        RemoteCallException wrapped = assertThrows(RemoteCallException.class, () -> AsyncTicket.getResult(ticket));
        assertInstanceOf(IOException.class, wrapped.getCause());
        assertEquals(null, Remote.asyncVoid(squarer, Squarer::nothing).get(30, TimeUnit.SECONDS));
    }

    @Test
    void remoteAsyncTakesExactlyOneCall() {
        Squarer squarer = connected(ConcurrentHashMap.newKeySet());
        CumulusException none = assertThrows(CumulusException.class, () -> Remote.async(squarer, s -> 1));
        assertTrue(none.getMessage().contains("made no call"), none.getMessage());
        CumulusException two = assertThrows(CumulusException.class, () -> Remote.async(squarer, s -> {
            s.nothing();
            s.nothing();
            return null;
        }));
        assertTrue(two.getMessage().contains("second one (nothing)"), two.getMessage());
        CumulusException notProxy = assertThrows(CumulusException.class, () -> Remote.async("x", String::length));
        assertTrue(notProxy.getMessage().contains("not a remote object proxy"), notProxy.getMessage());
        for (Object notRemote : new Object[] {"x", null}) {
            CumulusException noTicket = assertThrows(CumulusException.class, () -> AsyncTicket.newTicket(notRemote));
            assertTrue(noTicket.getMessage().contains("not a remote object proxy: " + (notRemote == null ? "null"
                : "java.lang.String")), noTicket.getMessage());
        }
    }

    /** The server never answers; its node then fails: every outstanding future fails, naming the node. */
    @Test
    void aFailedNodeFailsEveryOutstandingFuture() throws Exception {
        ClassLoader loader = getClass().getClassLoader();
        RpcEngine caller = new RpcEngine(0, 2, (to, buf, off, len) -> { }, loader, 0);
        caller.scheduler(Scheduler.NONE);
        engines.add(caller);
        Squarer squarer = caller.proxy(new RemoteRef(1, 16, Squarer.class.getName()), Squarer.class, "squarer");
        List<CompletableFuture<Long>> futures = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            int x = i;
            futures.add(Remote.async(squarer, s -> s.square(x)));
        }
        assertFalse(futures.stream().anyMatch(CompletableFuture::isDone), "no answer came");
        caller.onNodeGone(1, "killed by the test");
        for (CompletableFuture<Long> f : futures) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
            NodeFailedException failed = assertInstanceOf(NodeFailedException.class, e.getCause());
            assertEquals(1, failed.nodeId());
            assertTrue(failed.getMessage().contains("killed by the test"), failed.getMessage());
        }
        CompletableFuture<Long> late = Remote.async(squarer, s -> s.square(1));
        assertTrue(late.isCompletedExceptionally(), "a call to a node known to be gone fails at once, on its future");
        ExecutionException lateFailure = assertThrows(ExecutionException.class, late::get);
        assertEquals(1, assertInstanceOf(NodeFailedException.class, lateFailure.getCause()).nodeId());
        Squarer ticket = AsyncTicket.newTicket(squarer);
        ticket.square(2); // starts, as any ticket call does: the failure is the ticket's result
        assertEquals(1, assertThrows(NodeFailedException.class, () -> AsyncTicket.getResult(ticket)).nodeId());
    }

    @Test
    void anUnansweredCallTimesOutWithTheProxysTimeout() {
        ClassLoader loader = getClass().getClassLoader();
        RpcEngine caller = new RpcEngine(0, 2, (to, buf, off, len) -> { }, loader, 0);
        caller.scheduler(Scheduler.NONE);
        engines.add(caller);
        Squarer squarer = caller.proxy(new RemoteRef(1, 16, Squarer.class.getName()), Squarer.class, "squarer",
            TimeUnit.MILLISECONDS.toNanos(50));
        CompletableFuture<Long> f = Remote.async(squarer, s -> s.square(3));
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(30, TimeUnit.SECONDS));
        assertInstanceOf(RemoteTimeoutException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("squarer.square()"), e.getCause().getMessage());
    }
}
