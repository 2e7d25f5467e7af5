package dev.cumulus;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;

/**
 * Makes a ticket or a stand-in: a proxy with the same interfaces as a remote object's proxy, and so of the same proxy
 * class, whose constructor is looked up once per class instead of {@link Proxy#newProxyInstance} finding it (and
 * copying the interface array) at every call. A proxy class this package cannot construct directly (one of a
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

    private ProxyConstructors() {
    }

    /** A new proxy of {@code proxy}'s class (its interfaces, its class loader) whose calls go to {@code handler}. */
    static Object sameClassAs(Object proxy, InvocationHandler handler) {
        Class<?> type = proxy.getClass();
        Constructor<?> c = CONSTRUCTORS.get(type);
        if (c != null) {
            try {
                return c.newInstance(handler);
            } catch (ReflectiveOperationException e) {
                // not constructible from here after all: the slow way below
            }
        }
        return Proxy.newProxyInstance(type.getClassLoader(), type.getInterfaces(), handler);
    }
}
