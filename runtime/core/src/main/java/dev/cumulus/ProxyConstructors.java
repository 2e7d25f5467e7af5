package dev.cumulus;

import dev.cumulus.internal.rpc.TicketHandle;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;

/**
 * Makes a ticket or a stand-in: a proxy with the same interfaces as a remote object's proxy (a ticket also
 * {@link TicketHandle}), whose class's constructor is looked up once per class instead of {@link Proxy#newProxyInstance}
 * finding it (and copying the interface array) at every call. A proxy class this package cannot construct directly (one of a
 * non-public interface) goes through {@link Proxy#newProxyInstance}.
 */
final class ProxyConstructors {
    private static final ClassValue<Constructor<?>> CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> proxyClass) {
            if (!Proxy.isProxyClass(proxyClass) || !Modifier.isPublic(proxyClass.getModifiers())) {
                return null;
            }
            try {
                Constructor<?> c = proxyClass.getConstructor(InvocationHandler.class);
                return c.canAccess(null) ? c : null;
            } catch (NoSuchMethodException | SecurityException e) {
                return null;
            }
        }
    };

    /**
     * Per remote object's proxy class, the constructor of its tickets' class (the same interfaces and
     * {@link TicketHandle}); else that of the remote object's class, or null (then {@link #make} goes the slow way).
     */
    private static final ClassValue<Constructor<?>> TICKET_CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> proxyClass) {
            Class<?>[] own = proxyClass.getInterfaces();
            Class<?>[] all = Arrays.copyOf(own, own.length + 1);
            all[own.length] = TicketHandle.class;
            try {
                return CONSTRUCTORS.get(Proxy.newProxyInstance(proxyClass.getClassLoader(), all, (p, m, a) -> null)
                    .getClass());
            } catch (IllegalArgumentException | SecurityException e) {
                return CONSTRUCTORS.get(proxyClass); // e.g. TicketHandle not visible from the interfaces' loader
            }
        }
    };

    private ProxyConstructors() {
    }

    /** A new ticket for calls on {@code proxy}: its interfaces and {@link TicketHandle}, calls going to {@code ticket}. */
    static Object ticketFor(Object proxy, InvocationHandler ticket) {
        return make(TICKET_CONSTRUCTORS.get(proxy.getClass()), proxy, ticket);
    }

    /** A new proxy of {@code proxy}'s class (its interfaces, its class loader) whose calls go to {@code handler}. */
    static Object sameClassAs(Object proxy, InvocationHandler handler) {
        return make(CONSTRUCTORS.get(proxy.getClass()), proxy, handler);
    }

    private static Object make(Constructor<?> c, Object proxy, InvocationHandler handler) {
        if (c != null) {
            try {
                return c.newInstance(handler);
            } catch (ReflectiveOperationException e) {
                // not constructible from here after all: the slow way below
            }
        }
        Class<?> type = proxy.getClass();
        return Proxy.newProxyInstance(type.getClassLoader(), type.getInterfaces(), handler);
    }
}
