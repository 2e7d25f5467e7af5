package conform.other;

/** A superclass in another package than its subclass: protected and public fields the subclass writes. */
public abstract class Base {
    protected int guarded;
    public long open;
    protected static int made;
    int hidden = 5;

    protected Base() {
        made++;
    }

    /** The package-private field, read in this package. */
    public int hidden() {
        return hidden;
    }

    /** Writes the package-private field in this package. */
    public void hide(int v) {
        hidden = v;
    }
}
