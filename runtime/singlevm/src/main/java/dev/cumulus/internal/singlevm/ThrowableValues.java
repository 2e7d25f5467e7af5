package dev.cumulus.internal.singlevm;

import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

/**
 * Makes on this node the exceptions a {@link ThrowableText} describes.
 *
 * <p>A JDK exception is rebuilt from its value: its class is loaded by name and must be a {@link Throwable} that is
 * not a program class; an instance is made with its public {@code (String)} or no-argument constructor, else a
 * {@code (String, X)} one given a stand-in {@code X} (an {@code UncheckedIOException}'s {@code IOException}), so that
 * it exists before its cause, which may refer back to it; else, once the cause is made, its
 * {@code (String, Throwable)} or {@code (String, X)} one with it, the first that works; then it is given the
 * message, cause (replacing a stand-in), stack trace and
 * suppressed exceptions that were sent, as they were ({@link ThrowableState#writeInto}). A class with none of those
 * constructors (or abstract, or not public, or whose constructors fail here) becomes a {@code RuntimeException} whose
 * message is the original class's name and message, with the same cause, trace and suppressed exceptions. Fields a JDK
 * class adds to {@code Throwable}'s are not sent: they keep what its constructor set.
 *
 * <p>A program exception is this node's master or copy of the shared object; a copy made from this very reference
 * gets the state the text carries before it is registered, so no thread of the node sees it without its message.
 * Not thread-safe: one per decoded text.
 */
final class ThrowableValues {
    private static final Class<?>[] MESSAGE = {String.class};
    private static final Class<?>[] NOTHING = {};
    private static final Class<?>[] MESSAGE_CAUSE = {String.class, Throwable.class};

    private final ObjectSpace space;
    /** The copies this text made, by id: a later mention in the same text (a cycle) is the same copy. */
    private final Map<Long, Object> made = new HashMap<>();
    /** The JDK exceptions this text made, by their index in it. */
    private final Map<Integer, Throwable> jdk = new HashMap<>();

    private ThrowableValues(ObjectSpace space) {
        this.space = space;
    }

    /** The exception {@link ThrowableText#value} wrote as {@code text}. */
    static Throwable value(ObjectSpace space, String text) {
        return new ThrowableValues(space).of(ThrowableText.parseValue(text));
    }

    /** The program exception's state {@link ThrowableText#state} wrote as {@code text}. */
    static ThrowableState state(ObjectSpace space, String text) {
        return new ThrowableValues(space).of(ThrowableText.parseState(text));
    }

    private Throwable of(ThrowableText.Node node) {
        return switch (node) {
            case ThrowableText.Absent a -> null;
            case ThrowableText.Jdk j -> rebuild(j);
            case ThrowableText.Again a -> jdk.get(a.index());
            case ThrowableText.Program p -> shared(p);
        };
    }

    private ThrowableState of(ThrowableText.State s) {
        boolean causeSet = !(s.cause() instanceof ThrowableText.Absent a && a.self());
        Throwable cause = of(s.cause()); // first, as the text has it: a later exception may refer back to it
        Throwable[] suppressed = s.suppressed().stream().map(this::of).filter(java.util.Objects::nonNull)
            .toArray(Throwable[]::new);
        return new ThrowableState(s.message(), causeSet, cause, s.frames(), suppressed, null);
    }

    private Throwable rebuild(ThrowableText.Jdk j) {
        Class<?> type = space.loadClass(j.className());
        if (!Throwable.class.isAssignableFrom(type) || ClassLayout.isProgramClass(type)) {
            throw new IllegalArgumentException(j.className() + " is not a JDK exception class");
        }
        boolean constructible = Modifier.isPublic(type.getModifiers()) && !Modifier.isAbstract(type.getModifiers());
        String message = j.state().message();
        Throwable t = constructible ? make(type, MESSAGE, new Object[] {message}) : null;
        if (t == null && constructible) {
            t = make(type, NOTHING, new Object[0]);
        }
        Class<?> standIn = null;
        if (t == null && constructible) {
            for (Constructor<?> c : type.getConstructors()) { // (String, X) only: UncheckedIOException(String, IOException)
                Class<?>[] p = c.getParameterTypes();
                if (t == null && p.length == 2 && p[0] == String.class && Throwable.class.isAssignableFrom(p[1])) {
                    t = withStandIn(type, p, message);
                    standIn = t == null ? null : p[1];
                }
            }
        }
        if (t != null) {
            jdk.put(j.index(), t); // before its cause and suppressed exceptions, which may refer back to it
        }
        ThrowableState state = of(j.state());
        if (standIn != null && state.cause() != null && !standIn.isInstance(state.cause())) {
            t = null; // the cause that came is no X: made with it below, or not at all
        }
        if (t == null && constructible) {
            t = withCause(type, state);
        }
        if (t == null) {
            t = new RuntimeException();
            state = state.withMessage(j.className() + (message == null ? "" : ": " + message));
        }
        jdk.put(j.index(), t);
        state.writeInto(t);
        return t;
    }

    /**
     * An instance of {@code type}, which has no constructor without the cause, made by its {@code (String, X)} one
     * {@code parameters} with a stand-in {@code X} (made by its {@code (String)} or no-argument constructor) that the
     * cause that came replaces once it is made ({@link ThrowableState#writeInto} writes the field): so it exists
     * before its cause, which may refer back to it (a cycle); {@code null} if no stand-in or instance can be made.
     */
    private static Throwable withStandIn(Class<?> type, Class<?>[] parameters, String message) {
        Throwable standIn = make(parameters[1], MESSAGE, new Object[] {null});
        if (standIn == null) {
            standIn = make(parameters[1], NOTHING, new Object[0]);
        }
        return standIn == null ? null : make(type, parameters, new Object[] {message, standIn});
    }

    /**
     * An instance of {@code type} made with {@code state}'s message and cause: by its {@code (String, Throwable)}
     * constructor, else a {@code (String, X)} one whose {@code X} the cause is; {@code null} if none works.
     */
    private static Throwable withCause(Class<?> type, ThrowableState state) {
        Throwable t = make(type, MESSAGE_CAUSE, new Object[] {state.message(), state.cause()});
        if (t != null) {
            return t;
        }
        // (String, a Throwable subclass) with the cause: UncheckedIOException(String, IOException), say
        for (Constructor<?> c : type.getConstructors()) {
            Class<?>[] p = c.getParameterTypes();
            if (p.length == 2 && p[0] == String.class && Throwable.class.isAssignableFrom(p[1])
                    && p[1].isInstance(state.cause())) {
                t = make(type, p, new Object[] {state.message(), state.cause()});
                if (t != null) {
                    return t;
                }
            }
        }
        return null;
    }

    /** {@code type}'s public constructor of {@code parameters} called with {@code arguments}, or {@code null}. */
    private static Throwable make(Class<?> type, Class<?>[] parameters, Object[] arguments) {
        try {
            Constructor<?> c = type.getConstructor(parameters);
            return (Throwable) c.newInstance(arguments);
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null; // not there, or it refuses these arguments
        }
    }

    private Throwable shared(ThrowableText.Program p) {
        Class<?> type = space.loadClass(p.className());
        if (!Throwable.class.isAssignableFrom(type) || !ClassLayout.isProgramClass(type)) {
            throw new IllegalArgumentException(p.className() + " is not a program exception class");
        }
        Object known = made.get(p.id());
        if (known != null) {
            return (Throwable) known;
        }
        boolean[] filled = {false};
        Throwable t = (Throwable) space.resolve(p.id(), p.className(), copy -> {
            made.put(p.id(), copy);
            filled[0] = true;
            if (p.state() != null) {
                of(p.state()).writeInto((Throwable) copy);
            }
        });
        if (!filled[0] && p.state() != null) {
            // This node holds the exception already, with its own state; the JDK exceptions the text wrote in this
            // one are made all the same, since the rest of the text may refer back to them (one suppressed elsewhere).
            of(p.state());
        }
        return t;
    }
}
