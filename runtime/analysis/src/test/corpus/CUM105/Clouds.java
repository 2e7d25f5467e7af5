package corpus.cum105;

import dev.cumulus.Cloud;

class Ledger implements Cloud.Root {
    private int total = 0;

    public void add(int x) { // classify: write
        total += x;
    }
}

/** Violating: a root holding another cloud's root, a node holding a foreign root. */
public class Clouds implements Cloud.Root {
    private Shelf first = null;
    private Ledger ledger = null; // expect: CUM105

    public void stock(int items) { // classify: write
        first = new Shelf(items, first);
    }
}

class Shelf implements Cloud.Node {
    Shelf next;
    Clouds owner = null;
    Ledger books = null; // expect: CUM105
    int items;

    Shelf(int items, Shelf next) {
        this.items = items;
        this.next = next;
    }
}
