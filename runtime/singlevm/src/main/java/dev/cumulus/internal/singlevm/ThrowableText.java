package dev.cumulus.internal.singlevm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The text form in which exceptions travel in an {@link ObjectImage} entry (kinds {@code THROWABLE} and
 * {@code THROWABLE_STATE} of {@link ImageCodec}), written and parsed here; never Java serialization. A JDK exception
 * goes by value: its class name and {@link ThrowableState} (message, stack trace, cause, suppressed exceptions, each
 * of those again by value); a program exception (a shared object) by its id and class, with its state the first time
 * the text names it, so that a node that makes its copy from this reference holds the message and trace before the
 * program can read them through JDK methods, which are not woven. Strings are written as {@code length:chars},
 * numbers as {@code digits;}, so no character needs escaping.
 *
 * <p>Bounded, when written and again when parsed (the receiver trusts no sender): causes and suppressed exceptions
 * nest at most {@link #MAX_DEPTH} deep, one text holds at most {@link #MAX_THROWABLES} exceptions, an exception at
 * most {@link #MAX_FRAMES} frames and {@link #MAX_SUPPRESSED} suppressed exceptions, a message at most
 * {@link #MAX_MESSAGE} characters and a class, method, file or module name at most {@link #MAX_NAME}. A JDK exception
 * met again in the same text (the cause of one and suppressed in another, say) is written once and referred back to
 * by its number among the text's JDK exceptions, so the receiver rebuilds one exception there too. The writer
 * leaves out what lies beyond (a JDK exception past the bounds is dropped, a program exception is still named, without
 * its state) and cuts long texts; the parser refuses a text that breaks them.
 */
final class ThrowableText {
    static final int MAX_DEPTH = 16;
    static final int MAX_THROWABLES = 256;
    static final int MAX_FRAMES = 1024;
    static final int MAX_SUPPRESSED = 64;
    static final int MAX_MESSAGE = 65_536;
    static final int MAX_NAME = 1024;

    private static final char JDK = 'V';
    private static final char PROGRAM = 'R';
    private static final char PROGRAM_NAMED = 'P';
    private static final char NONE = 'N';
    private static final char SELF = 'S';
    private static final char AGAIN = 'B';

    /** A parsed exception value. */
    sealed interface Node permits Jdk, Again, Program, Absent {
    }

    /** A JDK exception by value, the {@code index}th (from 0) of its text. */
    record Jdk(int index, String className, State state) implements Node {
    }

    /** The JDK exception the text wrote {@code index}th, met again. */
    record Again(int index) implements Node {
    }

    /** A program exception: shared object {@code id}; {@code state} is {@code null} where the text named it before. */
    record Program(long id, String className, State state) implements Node {
    }

    /** No exception: {@code null}, or (as a cause only) the exception itself, which has no cause set. */
    record Absent(boolean self) implements Node {
    }

    /** A parsed {@link ThrowableState}; its cause is {@code Absent(true)} when no cause was set. */
    record State(String message, StackTraceElement[] frames, Node cause, List<Node> suppressed) {
    }

    private final StringBuilder out = new StringBuilder();
    private final ToLongFunction<Object> ids;
    private final Set<Throwable> written = Collections.newSetFromMap(new IdentityHashMap<>());
    /** The JDK exceptions written so far, each with its index. */
    private final Map<Throwable, Integer> jdkIndex = new IdentityHashMap<>();

    private ThrowableText(ToLongFunction<Object> ids) {
        this.ids = ids;
    }

    /** The text of exception {@code t}; {@code ids} gives the id of a program exception (a shared object). */
    static String value(Throwable t, ToLongFunction<Object> ids) {
        ThrowableText w = new ThrowableText(ids);
        w.write(t, 0);
        return w.out.toString();
    }

    /**
     * The text of a program exception's state {@code s}. Its owner counts as written: where the state refers back to
     * it (a cause cycle) the text names it, rather than writing its state a second time, which would take its JDK
     * exceptions with it (each exception is written once) and leave them out where they belong.
     */
    static String state(ThrowableState s, ToLongFunction<Object> ids) {
        ThrowableText w = new ThrowableText(ids);
        if (s.owner() != null) {
            w.written.add(s.owner());
        }
        w.writeState(s, 0);
        return w.out.toString();
    }

    private void write(Throwable t, int depth) {
        boolean program = t instanceof SharedObject;
        Integer again = t == null || program ? null : jdkIndex.get(t);
        boolean notHere = t == null || depth > MAX_DEPTH || written.size() >= MAX_THROWABLES || written.contains(t);
        if (again != null) {
            out.append(AGAIN);
            number(again);
        } else if (notHere && !program) {
            out.append(NONE);
        } else if (notHere) {
            out.append(PROGRAM_NAMED);
            number(ids.applyAsLong(t));
            string(t.getClass().getName(), MAX_NAME);
        } else {
            written.add(t);
            if (program) {
                out.append(PROGRAM);
                number(ids.applyAsLong(t));
            } else {
                jdkIndex.put(t, jdkIndex.size());
                out.append(JDK);
            }
            string(t.getClass().getName(), MAX_NAME);
            writeState(ThrowableState.of(t), depth);
        }
    }

    private void writeState(ThrowableState s, int depth) {
        string(s.message(), MAX_MESSAGE);
        int frames = Math.min(s.frames().length, MAX_FRAMES);
        number(frames);
        for (int i = 0; i < frames; i++) {
            StackTraceElement f = s.frames()[i];
            string(f.getModuleName(), MAX_NAME);
            string(f.getClassName(), MAX_NAME);
            string(f.getMethodName(), MAX_NAME);
            string(f.getFileName(), MAX_NAME);
            number(f.getLineNumber());
        }
        if (s.causeSet()) {
            write(s.cause(), depth + 1);
        } else {
            out.append(SELF);
        }
        int suppressed = Math.min(s.suppressed().length, MAX_SUPPRESSED);
        number(suppressed);
        for (int i = 0; i < suppressed; i++) {
            write(s.suppressed()[i], depth + 1);
        }
    }

    private void string(String s, int max) {
        if (s == null) {
            out.append('-');
        } else {
            String cut = s.length() > max ? s.substring(0, max) : s;
            out.append(cut.length()).append(':').append(cut);
        }
    }

    private void number(long n) {
        out.append(n).append(';');
    }

    // ---- parsing ----------------------------------------------------------------------------------------------------

    /** Parses an exception's text ({@link #value}). */
    static Node parseValue(String text) {
        Parser p = new Parser(text);
        Node n = p.node(0, false);
        p.end();
        return n;
    }

    /** Parses a program exception's state ({@link #state}). */
    static State parseState(String text) {
        Parser p = new Parser(text);
        State s = p.state(0);
        p.end();
        return s;
    }

    /** Reads one text, refusing any that breaks the form or the bounds ({@link IllegalArgumentException}). */
    private static final class Parser {
        private final String text;
        private int at;
        private int throwables;
        private int jdkExceptions;

        Parser(String text) {
            this.text = text;
        }

        Node node(int depth, boolean causeOfItself) {
            char c = next();
            if (c == NONE || c == SELF && causeOfItself) {
                return new Absent(c == SELF);
            }
            if (c == PROGRAM_NAMED) {
                return new Program(number(), name(), null);
            }
            if (c == AGAIN) {
                long index = number();
                if (index < 0 || index >= jdkExceptions) {
                    throw malformed("exception " + index + " referred back to, of " + jdkExceptions + " so far");
                }
                return new Again((int) index);
            }
            if (depth > MAX_DEPTH) {
                throw malformed("exceptions nested more than " + MAX_DEPTH + " deep");
            }
            if (++throwables > MAX_THROWABLES) {
                throw malformed("more than " + MAX_THROWABLES + " exceptions");
            }
            return switch (c) {
                case JDK -> new Jdk(jdkExceptions++, name(), state(depth));
                case PROGRAM -> new Program(number(), name(), state(depth));
                default -> throw malformed("unexpected '" + c + "'");
            };
        }

        State state(int depth) {
            String message = string(MAX_MESSAGE);
            int count = count(MAX_FRAMES, "frames");
            StackTraceElement[] frames = new StackTraceElement[count];
            for (int i = 0; i < count; i++) {
                String module = string(MAX_NAME);
                String className = name();
                String method = name();
                String file = string(MAX_NAME);
                int line = (int) number();
                frames[i] = new StackTraceElement(null, module, null, className, method, file, line);
            }
            Node cause = node(depth + 1, true);
            int n = count(MAX_SUPPRESSED, "suppressed exceptions");
            List<Node> suppressed = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                Node s = node(depth + 1, false);
                if (!(s instanceof Absent)) {
                    suppressed.add(s);
                }
            }
            return new State(message, frames, cause, suppressed);
        }

        void end() {
            if (at != text.length()) {
                throw malformed("text after the end");
            }
        }

        private String name() {
            String s = string(MAX_NAME);
            if (s == null) {
                throw malformed("a missing name");
            }
            return s;
        }

        private int count(int max, String what) {
            long n = number();
            if (n < 0 || n > max) {
                throw malformed(n + " " + what + " (at most " + max + ")");
            }
            return (int) n;
        }

        private String string(int max) {
            if (at < text.length() && text.charAt(at) == '-') {
                at++;
                return null;
            }
            int colon = text.indexOf(':', at);
            if (colon < 0 || colon - at > 6) {
                throw malformed("a missing string length");
            }
            int length = parseInt(text.substring(at, colon));
            if (length < 0 || length > max || colon + 1 + length > text.length()) {
                throw malformed("a string of " + length + " characters (at most " + max + ")");
            }
            at = colon + 1 + length;
            return text.substring(colon + 1, at);
        }

        private long number() {
            int semicolon = text.indexOf(';', at);
            if (semicolon < 0 || semicolon - at > 20) {
                throw malformed("a missing number");
            }
            try {
                long n = Long.parseLong(text.substring(at, semicolon));
                at = semicolon + 1;
                return n;
            } catch (NumberFormatException e) {
                throw malformed("a bad number");
            }
        }

        private int parseInt(String s) {
            try {
                return Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw malformed("a bad string length");
            }
        }

        private char next() {
            if (at >= text.length()) {
                throw malformed("the text ends early");
            }
            return text.charAt(at++);
        }

        private IllegalArgumentException malformed(String why) {
            return new IllegalArgumentException("malformed exception value at character " + at + ": " + why);
        }
    }
}
