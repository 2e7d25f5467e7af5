package dev.cumulus.profiler.channel;

import java.util.List;

/**
 * The cluster's newest figures per object during a run: every node's newest {@link LiveWindow} merged by the
 * launcher ({@code dev.cumulus.profiler.figures.WindowMerger}), one record after each window received. What the editor's
 * table and lenses show while a run goes.
 *
 * @param type                always {@value #TYPE}
 * @param version             {@link ProfileRecord#VERSION}
 * @param tMs                 when the launcher made it, ms since the epoch
 * @param lastEventMs         end time of the newest event in the windows merged (absent without events)
 * @param nodes               the nodes whose newest window counts (sorted; a node silent for longer than
 *                            {@code WindowMerger.STALE_MS} no longer counts)
 * @param sequencerMigrations sequencer arrivals in the nodes' newest windows, summed (one sequencer serves all clouds)
 * @param objects             the program's objects, busiest first (every object seen in the run; one idle now has
 *                            zero operations)
 * @param internal            the runtime's own objects ({@code cumulus.*} names, its array and tuple-space
 *                            services), listed apart
 */
public record LiveFigures(String type, int version, long tMs, Long lastEventMs, List<Integer> nodes,
                          long sequencerMigrations, List<ObjectFigures> objects, List<ObjectFigures> internal)
    implements ProfileRecord {
    public static final String TYPE = "figures";

    public LiveFigures(long tMs, Long lastEventMs, List<Integer> nodes, long sequencerMigrations,
                       List<ObjectFigures> objects, List<ObjectFigures> internal) {
        this(TYPE, VERSION, tMs, lastEventMs, nodes, sequencerMigrations, objects, internal);
    }
}
