package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.pastset.Element;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;
import dev.cumulus.pastset.Semantics;
import dev.cumulus.pastset.Template;

/** One node's view of the space of one placement. Any user thread. */
final class Space implements PastSet {
    private final PastSetRuntime runtime;
    private final Placement placement;

    Space(PastSetRuntime runtime, Placement placement) {
        this.runtime = runtime;
        this.placement = placement;
    }

    @Override
    public Element enter(Template template) {
        if (template == null) {
            throw new CumulusException("enter(template): template is null; build one with Template.of(...)");
        }
        runtime.codec().allow(template);
        String id = PastSetRuntime.id(placement, template);
        int home = runtime.home(placement, id, template.key());
        return new ElementHandle(runtime, placement, template, id, home,
            home == runtime.self() ? runtime.state(id, template) : null);
    }

    @Override
    public void redefine(Template template, Semantics semantics) {
        if (template == null || semantics == null) {
            throw new CumulusException("redefine(template, semantics): neither may be null");
        }
        runtime.redefine(placement, template, semantics);
    }

    @Override
    public Placement placement() {
        return placement;
    }

    @Override
    public String toString() {
        return "PastSet[" + placement + " on node " + runtime.self() + "]";
    }
}
