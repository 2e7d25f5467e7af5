package dev.cumulus;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.Arrays;

/**
 * Makes a ticket or a stand-in: a proxy with the same interfaces as a remote object's proxy (a ticket also one of
 * its own, {@link #withInterface}), whose class's constructor is looked up once per class instead of
 * {@link Proxy#newProxyInstance} finding it (and copying the interface array) at every call. A proxy class this
 * package cannot construct directly (one of a non-public interface) goes through {@link Proxy#newProxyInstance}.
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
        return make(CONSTRUCTORS.get(proxy.getClass()), proxy, handler);
    }

    /**
     * The constructor of the proxy class of {@code proxy}'s interfaces and {@code extra}, or of {@code proxy}'s own
     * class when that class cannot be made (e.g. {@code extra} is not visible from the interfaces' class loader); null
     * when neither is constructible from here.
     */
    static Constructor<?> withInterface(Class<?> proxyClass, Class<?> extra) {
        Class<?>[] own = proxyClass.getInterfaces();
        Class<?>[] all = Arrays.copyOf(own, own.length + 1);
        all[own.length] = extra;
        try {
            return CONSTRUCTORS.get(Proxy.newProxyInstance(proxyClass.getClassLoader(), all, (p, m, a) -> null)
                .getClass());
        } catch (IllegalArgumentException | SecurityException e) {
            return CONSTRUCTORS.get(proxyClass);
        }
    }

    /** A new proxy made with {@code c} (when null: of {@code proxy}'s interfaces) whose calls go to {@code handler}. */
    static Object make(Constructor<?> c, Object proxy, InvocationHandler handler) {
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
