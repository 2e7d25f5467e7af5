package dev.cumulus.lsp;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Proxy;
import java.lang.reflect.Type;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Makes the requests the server does not serve answer empty instead of failing. LSP4J's service interfaces implement
 * every request the server does not override (completion, definition, references, ...) as a default method that throws
 * {@code UnsupportedOperationException}, which reaches the client as a JSON-RPC error carrying a Java stack trace. The
 * server does not advertise those capabilities, but clients ask anyway (another extension's command, a generic client
 * that asks everything): they get an empty answer ({@code []} where the result is a list, else {@code null}, which the
 * protocol allows for each of these) and no error. Notifications the server does not handle are dropped.
 */
final class EmptyAnswers {
    private EmptyAnswers() {
    }

    /** {@code served} seen as {@code service}: its own methods where it overrides them, empty answers elsewhere. */
    static <T> T wrap(Class<T> service, T served) {
        return service.cast(Proxy.newProxyInstance(service.getClassLoader(), new Class<?>[] {service},
                (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class || serves(served, method)) {
                        try {
                            return method.invoke(served, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                    return method.getReturnType() == CompletableFuture.class
                            ? CompletableFuture.completedFuture(empty(method)) : null;
                }));
    }

    /** True if the object's class (not the interface's default) implements the method. */
    static boolean serves(Object served, Method method) {
        try {
            Method own = served.getClass().getMethod(method.getName(), method.getParameterTypes());
            return !own.getDeclaringClass().isInterface();
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /** {@code List.of()} for a future of a list, else {@code null}. */
    static Object empty(Method method) {
        Type t = method.getGenericReturnType();
        if (t instanceof ParameterizedType p && p.getActualTypeArguments()[0] instanceof Type result) {
            Type raw = result instanceof ParameterizedType r ? r.getRawType() : result;
            if (raw == List.class) {
                return List.of();
            }
        }
        return null;
    }
}
