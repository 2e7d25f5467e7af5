package dev.cumulus.agent;

import dev.cumulus.analysis.Finding;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The cloud classes the agent refused because they break the replication restrictions (error findings), in the
 * order they were refused. The cloud runtime reads this (by reflection, since {@code cumulus-runtime} does not
 * depend on the agent) to say why a class cannot be replicated. Thread-safe.
 */
public final class Refusals {
    /**
     * One refused class.
     *
     * @param className  dotted class name ({@code corpus.cum104.StaticState})
     * @param message    the message the refused class's static initializer throws: a header line and one
     *                   compiler-style line per error finding, each naming its rule page
     * @param findings   the error findings
     * @param atLoadTime true if the class was refused while being defined (it cannot be initialized); false if it
     *                   was already loaded when the agent attached (it stays usable but is not woven)
     */
    public record Refusal(String className, String message, List<Finding> findings, boolean atLoadTime) {
        public Refusal {
            findings = List.copyOf(findings);
        }
    }

    private static final List<Refusal> REFUSED = new CopyOnWriteArrayList<>();

    private Refusals() {
    }

    /** Every refusal so far. */
    public static List<Refusal> list() {
        return List.copyOf(REFUSED);
    }

    /** The refusal of one class (dotted name), if it was refused. */
    public static Optional<Refusal> of(String className) {
        return REFUSED.stream().filter(r -> r.className().equals(className)).findFirst();
    }

    /** The messages of every refusal: what a caller that only knows {@code String} can print. */
    public static List<String> messages() {
        return REFUSED.stream().map(Refusal::message).toList();
    }

    static void record(Refusal r) {
        REFUSED.add(r);
    }
}
