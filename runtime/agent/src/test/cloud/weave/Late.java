package weave;

import dev.cumulus.Cloud;

/** A cloud class loaded only after the agent was attached (AgentLoader test). */
public class Late implements Cloud.Root {
    private int n;

    public int inc() {
        return ++n;
    }
}
