package dev.cumulus.pastset;

import dev.cumulus.CumulusException;

import java.util.List;
import java.util.Objects;

/**
 * User redefinable memory semantics (URMS, PastSet §2 and §3.4): code that runs instead of {@code move} and
 * {@code observe} for one element, on the element's home node. Install it with
 * {@link PastSet#redefine(Template, Semantics)}; {@link #standard()} restores the ordinary semantics.
 *
 * <p>A {@code Semantics} is a description: the name of a class implementing {@link Redefinition} and string
 * parameters. The home node loads the class by name at run time (the program's classpath), creates it through its
 * no-argument constructor and calls {@link Redefinition#init}. Built in:
 * <ul>
 *   <li>{@link #sum(int)}, {@link #min(int)}, {@link #max(int)}: global reductions. Every process moves its
 *       contribution (one field: {@code int}, {@code long}, {@code double}, or an array of those, reduced element
 *       by element); after {@code n} contributions the round's result is appended to the log as one tuple.
 *       {@code observe()} returns to each caller the result of the next round it has not observed yet, blocking
 *       until that round has all {@code n} contributions.</li>
 *   <li>{@link #allGather(int)}: like {@code MPI_Allgather}. The template starts with an {@code int} rank in
 *       {@code 0..n-1}; after {@code n} contributions of a round the result tuple has {@code n} fields, field
 *       {@code r} holding rank {@code r}'s contribution (its second field, or an {@code Object[]} of its remaining
 *       fields when there are several).</li>
 * </ul>
 *
 * <p>Errors: when the class cannot be loaded or created, or its code throws, the element is marked broken: the call
 * that hit the error and every later or blocked call on that element fail with a {@link CumulusException} that
 * names the class and the cause, until the element is redefined. Other elements are not affected.
 */
public final class Semantics {
    /** Returned by {@link Redefinition#observe} to make the caller wait for the element's next change. */
    public static final long BLOCK = -1;

    private static final String BUILT_IN = "dev.cumulus.internal.pastset.";
    private static final Semantics STANDARD = new Semantics("", List.of());

    private final String className;
    private final List<String> params;

    private Semantics(String className, List<String> params) {
        this.className = className;
        this.params = List.copyOf(params);
    }

    /** The ordinary PastSet semantics (move appends, observe returns the element's oldest unobserved tuple). */
    public static Semantics standard() {
        return STANDARD;
    }

    /** Global sum of {@code n} contributions per round. */
    public static Semantics sum(int n) {
        return reduction("sum", n);
    }

    /** Global minimum of {@code n} contributions per round. */
    public static Semantics min(int n) {
        return reduction("min", n);
    }

    /** Global maximum of {@code n} contributions per round. */
    public static Semantics max(int n) {
        return reduction("max", n);
    }

    /** Assembles the contributions of ranks {@code 0..n-1} into one tuple per round (the N-body pattern). */
    public static Semantics allGather(int n) {
        checkN("allGather", n);
        return new Semantics(BUILT_IN + "AllGather", List.of(Integer.toString(n)));
    }

    /** Your own {@link Redefinition}, with parameters handed to its {@code init}. */
    public static Semantics custom(Class<? extends Redefinition> type, String... params) {
        return custom(type.getName(), params);
    }

    /**
     * Your own {@link Redefinition}, named by class (loaded on the element's home node with the program's class
     * loader, so the class need not be loadable where this call is made).
     */
    public static Semantics custom(String className, String... params) {
        if (className == null || className.isBlank()) {
            throw new CumulusException("a custom semantics needs the name of a class implementing "
                + Redefinition.class.getName());
        }
        for (String p : params) {
            Objects.requireNonNull(p, "semantics parameters may not be null");
        }
        return new Semantics(className, List.of(params));
    }

    private static Semantics reduction(String op, int n) {
        checkN(op, n);
        return new Semantics(BUILT_IN + "Reduction", List.of(op, Integer.toString(n)));
    }

    private static void checkN(String op, int n) {
        if (n < 1) {
            throw new CumulusException(op + "(n) needs at least 1 contribution per round, not " + n);
        }
    }

    /** Whether this is {@link #standard()}. */
    public boolean isStandard() {
        return className.isEmpty();
    }

    /** The {@link Redefinition} class name ({@code ""} for the standard semantics). */
    public String className() {
        return className;
    }

    /** The parameters handed to {@link Redefinition#init}. */
    public List<String> params() {
        return params;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Semantics s && s.className.equals(className) && s.params.equals(params);
    }

    @Override
    public int hashCode() {
        return className.hashCode() * 31 + params.hashCode();
    }

    @Override
    public String toString() {
        return isStandard() ? "standard" : className + params;
    }

    /** Who calls an operation: a thread of a node. Observers of redefined elements are told apart by this. */
    public record Caller(int node, long thread) {
    }

    /**
     * The code behind a custom {@link Semantics}. One instance per element, on its home node; its methods run under
     * the element's lock, one at a time, so they may keep plain fields but must not block or call the space.
     * A public class with a no-argument constructor (any visibility).
     */
    public interface Redefinition {
        /** Called once, when the element is redefined. */
        default void init(Context element, List<String> params) {
        }

        /**
         * Runs instead of {@code move}. Append tuples with {@link Context#append}.
         *
         * @param fields the moved tuple's fields (already checked against the template by the caller)
         * @return the log index the move should report (usually of a tuple it appended), or -1
         */
        long move(Context element, Caller caller, Object[] fields);

        /**
         * Runs instead of {@code observe()}: picks the tuple {@code caller} gets.
         *
         * @return a log index between {@link Context#oldest()} and {@link Context#last()}, or {@link #BLOCK} to be
         *         asked again after the element's next change
         */
        long observe(Context element, Caller caller);
    }

    /** The element as a {@link Redefinition} sees it. */
    public interface Context {
        /** The element's template (types loaded on the home node). */
        Template template();

        /** Appends a tuple (any transferable fields; not checked against the template); returns its index. */
        long append(Object... fields);

        /** The fields of the tuple at {@code index} (a copy). */
        Tuple tuple(long index);

        /** Index of the oldest tuple still kept (tuples before it were truncated). */
        long oldest();

        /** The element's First pointer: its oldest unobserved tuple ({@code last() + 1} when all are observed). */
        long first();

        /** Sets First (between {@link #oldest()} and {@code last() + 1}). */
        void first(long index);

        /** The element's Last pointer: the newest tuple, -1 when none was ever appended. */
        long last();
    }
}
