package sv;

/**
 * An array homed where it is first published: node 1 makes one and hands it to node 0 through a drop homed on node 0,
 * node 0 writes it, and node 1 reads it again under the drop's monitor through the access site that met it while it
 * was node 1's own (its "known" local must not outlive the monitor entry).
 */
public class Drop {
    static Drop drop;
    static int[] seed;
    private int[] slot;
    private boolean answered;

    public static void setup() {
        drop = new Drop();
        seed = new int[] {7};
    }

    /** Node 1: publishes its array, waits for node 0's answer, and returns what its site then reads. */
    public static int publishAndReadBack() throws InterruptedException {
        Drop d = drop;
        int warm = seed[0]; // a copy of node 0's array: from here on this node checks its array accesses
        int[] mine = {1, 0};
        int seen;
        synchronized (d) {
            while (true) {
                seen = mine[0]; // the same site before and after the array is published
                if (d.answered) {
                    break;
                }
                d.slot = mine;
                d.notifyAll();
                d.wait(); // the release publishes the array to node 0
            }
        }
        return seen + warm - 7;
    }

    /** Node 0: waits for node 1's array, writes it and answers. */
    public static void answer() throws InterruptedException {
        Drop d = drop;
        synchronized (d) {
            while (d.slot == null) {
                d.wait();
            }
            d.slot[0] = 42;
            d.answered = true;
            d.notifyAll();
        }
    }
}
