package dev.cumulus.internal.singlevm;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The single-VM mode fetched a stale copy (docs/design/SINGLEVM.md): a read on this node found its copy of a shared
 * object, array block or class's statics stale and fetched it from the home; the duration is the round trip.
 */
@Name(SingleVmFetchEvent.NAME)
@Label("Single-VM Fetch")
@Category({"Cumulus", "Single VM"})
@Description("A read found this node's copy of a shared object stale and fetched it from its home")
@StackTrace(false)
public final class SingleVmFetchEvent extends Event {
    public static final String NAME = "dev.cumulus.SingleVmFetch";

    @Label("Node")
    public int node;

    @Label("Home Node")
    public int homeNode;

    @Label("Class")
    @Description("The object's class (an array's type), or the class whose static fields were fetched")
    public String className;

    @Label("Field")
    @Description("The field whose read missed; [] for an array element; * for all (Object.clone, record equals)")
    public String field;

    @Label("Entries")
    @Description("Fields or elements fetched")
    public int entries;
}
