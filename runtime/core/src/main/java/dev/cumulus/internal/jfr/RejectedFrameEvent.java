package dev.cumulus.internal.jfr;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A frame that arrived over UDP without a valid seal (tag, run, counter) and was dropped without being decoded. */
@Name(RejectedFrameEvent.NAME)
@Label("Rejected Frame")
@Category({"Cumulus", "Transport"})
@StackTrace(false)
public final class RejectedFrameEvent extends Event {
    public static final String NAME = "dev.cumulus.RejectedFrame";

    @Label("Node")
    @Description("The node that dropped the frame")
    public int node;

    @Label("Source Address")
    @Description("Where the datagrams came from, as the Aeron image names it (host:port)")
    public String sourceAddress;

    @Label("Reason")
    @Description("not sealed, another run, bad tag or replayed")
    public String reason;

    @Label("Length")
    public int lengthBytes;

    /** Records one dropped frame now. */
    public static void record(int node, String sourceAddress, String reason, int lengthBytes) {
        RejectedFrameEvent e = new RejectedFrameEvent();
        if (e.isEnabled()) {
            e.node = node;
            e.sourceAddress = sourceAddress;
            e.reason = reason;
            e.lengthBytes = lengthBytes;
            e.commit();
        }
    }
}
