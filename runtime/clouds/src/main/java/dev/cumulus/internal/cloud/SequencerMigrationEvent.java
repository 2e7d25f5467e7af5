package dev.cumulus.internal.cloud;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** The sequencer token of the ordered broadcast arrived at this node. */
@Name(SequencerMigrationEvent.NAME)
@Label("Sequencer Migration")
@Category({"Cumulus", "Replication"})
@Description("The totally ordered broadcast's sequencer moved to this node")
@StackTrace(false)
public final class SequencerMigrationEvent extends Event {
    public static final String NAME = "dev.cumulus.SequencerMigration";

    @Label("From Node")
    public int fromNode;

    @Label("To Node")
    public int toNode;

    @Label("Next Sequence Number")
    public long nextSeq;

    @Label("Waiting Requesters")
    public int waiting;

    @Label("Reason")
    public String reason;
}
