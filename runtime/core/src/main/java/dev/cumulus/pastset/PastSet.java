package dev.cumulus.pastset;

/**
 * The structured tuple space of one cluster (PastSet, Pedersen and Vinter): typed elements, each a causally ordered
 * log of tuples, written with {@link Element#move} and read with {@link Element#observe()}.
 *
 * <pre>{@code
 * PastSet space = cluster.pastSet();
 * Element row = space.enter(Template.of("row", int.class, double[].class));
 * row.move(3, data);                    // append
 * Tuple t = row.observe();              // oldest unobserved tuple, blocks until there is one
 * Tuple old = row.observe(t.index());   // re-read
 * row.delta(8);                         // flow control: at most 8 unobserved tuples
 * row.truncate(t.index());              // drop older tuples for good
 * space.redefine(Template.of("energy", double.class), Semantics.sum(cluster.size()));
 * }</pre>
 *
 * Obtained from {@link dev.cumulus.Cluster#pastSet()} (or with a {@link Placement}); thread-safe.
 */
public interface PastSet {
    /**
     * Enters the element of {@code template} (EnterDimension): finds, or for first-touch placement decides, its home
     * node, and returns its handle. Not collective; entering the same template again returns an equivalent handle.
     */
    Element enter(Template template);

    /** {@code enter(Template.of(tag, types))}. */
    default Element enter(String tag, Class<?>... types) {
        return enter(Template.of(tag, types));
    }

    /**
     * Redefines the memory semantics of the element of {@code template} (on its home node). Takes effect for every
     * operation ordered after it; tuples already in the log stay.
     *
     * @throws dev.cumulus.CumulusException if the semantics class cannot be loaded, created or initialised (the
     *                                      element then reports that error to its callers until redefined again)
     */
    void redefine(Template template, Semantics semantics);

    /** This space's placement policy. */
    Placement placement();
}
