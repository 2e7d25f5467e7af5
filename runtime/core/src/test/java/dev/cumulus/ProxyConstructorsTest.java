package dev.cumulus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.function.IntSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

@Timeout(30)
class ProxyConstructorsTest {
    /** What a ticket's proxy implements besides the remote object's interfaces (AsyncTicket's is internal). */
    public interface Marker {
        Object handler();
    }

    public interface Shown {
        int value();
    }

    /** Not public: its proxies live in this package, where the proxy class's constructor is not public either. */
    interface Hidden {
        int value();
    }

    private static Object ticketFor(Object remote, InvocationHandler ticket) {
        return ProxyConstructors.make(ProxyConstructors.withInterface(remote.getClass(), Marker.class), remote, ticket);
    }

    private static Object proxyOf(Class<?> iface, InvocationHandler h) {
        return Proxy.newProxyInstance(iface.getClassLoader(), new Class<?>[] {iface}, h);
    }

    @Test
    void aTicketHasTheRemoteObjectsInterfacesAndHandsBackItsHandler() {
        Object remote = proxyOf(Shown.class, (p, m, a) -> 1);
        InvocationHandler ticket = (p, m, a) -> m.getDeclaringClass() == Marker.class ? "handler" : 2;
        Object made = ticketFor(remote, ticket);
        assertEquals(2, ((Shown) made).value(), "calls go to the ticket's handler");
        assertEquals("handler", ((Marker) made).handler());
        assertSame(made.getClass(), ticketFor(remote, ticket).getClass(), "one class per remote class");
        assertFalse(remote instanceof Marker, "the remote object's proxy is left as it was");
    }

    @Test
    void aTicketOfANonPublicInterfaceStillWorks() {
        Object remote = proxyOf(Hidden.class, (p, m, a) -> 1);
        InvocationHandler ticket = (p, m, a) -> 3;
        Object made = ticketFor(remote, ticket);
        assertEquals(3, ((Hidden) made).value());
        assertSame(ticket, Proxy.getInvocationHandler(made), "found through the proxy class registry");
    }

    @Test
    void aTicketOfAnInterfaceThatCannotSeeTheMarkerIsAProxyOfTheRemoteObjectsClass() {
        Object remote = proxyOf(IntSupplier.class, (p, m, a) -> 1); // the boot loader's: Marker not visible
        Object made = ticketFor(remote, (p, m, a) -> 5);
        assertSame(remote.getClass(), made.getClass());
        assertEquals(5, ((IntSupplier) made).getAsInt());
    }

    @Test
    void aStandInSharesTheRemoteObjectsClass() {
        Object remote = proxyOf(IntSupplier.class, (p, m, a) -> 1);
        Object standIn = ProxyConstructors.sameClassAs(remote, (p, m, a) -> 4);
        assertSame(remote.getClass(), standIn.getClass());
        assertEquals(4, ((IntSupplier) standIn).getAsInt());
    }
}
