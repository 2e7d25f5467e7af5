package dev.cumulus;

import dev.cumulus.internal.rpc.RemoteInvocationHandler;
import dev.cumulus.internal.rpc.TicketHandle;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Asynchronous calls on remote objects (Babylon's asynchronous tickets). A ticket is a proxy of the same interface
 * as the remote object; calling a method on it starts the remote call and returns at once (with {@code null}, 0 or
 * false); {@link #getResult(Object)} waits for the result.
 *
 * <pre>{@code
 * Worker ticket = AsyncTicket.newTicket(worker);
 * ticket.multiply(rows);                        // returns immediately
 * double[][] part = AsyncTicket.getResult(ticket);
 * }</pre>
 *
 * A ticket carries one call; make a new ticket for the next one. Calls in flight together run concurrently at the
 * object, in no set order, as calls of several threads do: a later call, a synchronous one included, may run before
 * an earlier one. Wait for a call's result before making one that must follow it, or make the object's class
 * {@link SafeMode} (its calls run one at a time, in the order they arrive); the tuple space's
 * {@code Element.moveAsync} is ordered. A client of a standing cluster keeps at most 1,024 calls outstanding on one
 * server (the most a server admits from one client; synchronous calls and {@code Remote.migrate} count too): the
 * method call that would start one more returns only once an answer from that server makes room, so a program that
 * starts calls faster than a server answers them is slowed down, never refused. That call fails instead when the
 * server is gone meanwhile (as a call to a failed server does) or the proxy's timeout ({@link Remote#withTimeout})
 * passes first. {@link Remote#async} starts the same call
 * and returns its {@link CompletableFuture} without a ticket: {@code Remote.async(worker, w -> w.multiply(rows))}. No
 * thread waits for an outstanding call; {@link #future}'s callbacks run as {@link Remote#async} describes. A thread in
 * {@link #getResult} polls its node for the answer before it blocks, as a synchronous call does, and completes the
 * answers its polls bring: a program that keeps calls in flight and takes their results in turn hands no answer to
 * another thread.
 */
public final class AsyncTicket {
    /** Per remote object's proxy class, its tickets' (with {@link TicketHandle}: see {@link #ticketOf}). */
    private static final ClassValue<Constructor<?>> TICKET_CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> proxyClass) {
            return ProxyConstructors.withInterface(proxyClass, TicketHandle.class);
        }
    };

    private AsyncTicket() {
    }

    /** A ticket for one asynchronous call on {@code remote}, a proxy from lookup, export or remoteNew. */
    @SuppressWarnings("unchecked")
    public static <T> T newTicket(T remote) {
        Ticket ticket = new Ticket(handlerOf(remote)); // first: it names what is no proxy, null included
        return (T) ProxyConstructors.make(TICKET_CONSTRUCTORS.get(remote.getClass()), remote, ticket);
    }

    /**
     * Waits for the ticket's call and returns its result; rethrows the remote exception (checked exceptions the
     * interface method declares arrive wrapped in a {@link RemoteCallException}, since this method cannot declare
     * them).
     *
     * @throws CumulusException if no call was made on the ticket
     */
    @SuppressWarnings("unchecked")
    public static <R> R getResult(Object ticket) {
        CompletableFuture<Object> future = future(ticket);
        try {
            return (R) future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while waiting for an asynchronous call", e);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        }
    }

    /** The ticket's call as a future: completes with the result, or exceptionally with the remote exception. */
    public static CompletableFuture<Object> future(Object ticket) {
        Ticket t = ticketOf(ticket);
        CompletableFuture<Object> f = t.result;
        if (f == null) {
            throw new CumulusException("no call was made on this ticket yet; call a method on it first");
        }
        return f;
    }

    private static RuntimeException rethrow(Throwable cause) {
        if (cause instanceof CompletionException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof RuntimeException r) {
            throw r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        throw new RemoteCallException("the asynchronous call threw " + cause, cause);
    }

    static RemoteInvocationHandler handlerOf(Object remote) {
        if (handlerOrNull(remote) instanceof RemoteInvocationHandler h) {
            return h;
        }
        throw new CumulusException("not a remote object proxy: " + (remote == null ? "null" : remote.getClass().getName())
            + "; pass what cluster.lookup, export or remoteNew returned");
    }

    /**
     * The invocation handler of a proxy, or null for anything else: one look at the proxy class registry
     * ({@link Proxy#getInvocationHandler} makes it), not two, per ticket made or read.
     */
    private static InvocationHandler handlerOrNull(Object object) {
        if (!(object instanceof Proxy)) {
            return null;
        }
        try {
            return Proxy.getInvocationHandler(object);
        } catch (IllegalArgumentException e) {
            return null; // a subclass of Proxy that is no proxy class
        }
    }

    private static Ticket ticketOf(Object ticket) {
        if ((ticket instanceof TicketHandle h ? h.cumulusTicket() : handlerOrNull(ticket)) instanceof Ticket t) {
            return t;
        }
        throw new CumulusException("not a ticket: " + (ticket == null ? "null" : ticket.getClass().getName())
            + "; make one with AsyncTicket.newTicket(proxy)");
    }

    private static final class Ticket implements InvocationHandler {
        private final RemoteInvocationHandler target;
        private volatile CompletableFuture<Object> result;

        Ticket(RemoteInvocationHandler target) {
            this.target = target;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            if (method.getDeclaringClass() == TicketHandle.class) {
                return this;
            }
            if (method.getDeclaringClass() == Object.class) {
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    default -> "AsyncTicket[" + target.label() + (result == null ? ", unused]" : "]");
                };
            }
            synchronized (this) {
                if (result != null) {
                    throw new CumulusException("this ticket already carries a call to " + target.label()
                        + "; make a new ticket with AsyncTicket.newTicket for each call");
                }
                result = target.invokeAsync(method, args);
            }
            return placeholder(method.getReturnType());
        }
    }

    /** What a call that only starts returns, by primitive return type: 0 or false (null for any other type). */
    private static final Map<Class<?>, Object> PLACEHOLDERS = Map.of(boolean.class, false, char.class, '\0',
        byte.class, (byte) 0, short.class, (short) 0, int.class, 0, long.class, 0L, float.class, 0f, double.class, 0d);

    /** What a call that only starts returns: {@code null}, 0 or false. */
    static Object placeholder(Class<?> type) {
        return type.isPrimitive() ? PLACEHOLDERS.get(type) : null; // most calls return objects: no map probe
    }
}
