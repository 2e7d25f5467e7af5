package corpus.cum106;

import dev.cumulus.Cloud;

/** Warning: a public or protected field invites outside accesses, even before any is written. */
public class PublicField implements Cloud.Root {
    public int total = 0; // expect: CUM106
    protected long updates = 0; // expect: CUM106
    public static final int LIMIT = 10;
    private int hidden;

    public void add(int x) { // classify: write
        total += x;
        updates++;
        hidden = x;
    }

    public int last() { // classify: read
        return hidden;
    }
}
