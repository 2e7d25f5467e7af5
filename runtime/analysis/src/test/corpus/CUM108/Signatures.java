package corpus.cum108;

import dev.cumulus.Cloud;
import java.util.List;

class Part implements Cloud.Node {
    int size = 0;
}

/** Violating: public root methods whose parameters or results cannot be passed by value. */
public class Signatures implements Cloud.Root {
    private int last = 0;

    public void take(Object o) { last = o.hashCode(); } // expect: CUM108; classify: write

    public StringBuilder text() { return new StringBuilder(); } // expect: CUM108; classify: read

    public void part(Part p) { last = p.size; } // expect: CUM108; classify: write

    public void threads(List<Thread> ts) { last = ts.size(); } // expect: CUM108; classify: write

    public int last() { return last; } // classify: read
}
