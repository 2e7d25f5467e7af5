package sv;

/** A shared object with fields of every kind, a final field, a volatile field and synchronized methods. */
public class Box {
    public int value;
    public long big;
    public double ratio;
    public char letter;
    public boolean on;
    public String label;
    public Box next;
    public int[] cells;
    public Integer boxed;
    public final int fixed;
    public volatile long stamp;

    public Box(int fixed) {
        this.fixed = fixed;
    }

    public synchronized void add(int d) {
        value += d;
    }

    public synchronized int get() {
        return value;
    }
}
