package weave;

/** Not a cloud class: never woven, even though it calls notifyAll. */
public class Plain {
    private int n;

    public synchronized void poke() {
        n++;
        notifyAll();
    }

    public int n() {
        return n;
    }
}
