package sv;

/** What two nodes share through node 0's statics: a counter under a monitor, a volatile flag, a hand-off slot. */
public class Pair {
    static final Object LOCK = new Object();
    static Box box;
    static int[] data;
    static volatile int flag;
    static Slot slot;

    public static void setup() {
        box = new Box(7);
        box.cells = new int[4];
        data = new int[10];
        slot = new Slot();
    }

    /** {@code big}, {@code data} and {@code cells} under {@code LOCK}; {@code value} under the box's own monitor. */
    public static void count(int times) {
        for (int i = 0; i < times; i++) {
            synchronized (LOCK) {
                box.big += 2;
                data[i % 10]++;
                box.cells[i % 4] += 3;
            }
            box.add(1000);
        }
    }

    public static String totals() {
        synchronized (LOCK) {
            int cells = 0;
            for (int c : box.cells) {
                cells += c;
            }
            int d = 0;
            for (int x : data) {
                d += x;
            }
            return box.big + "," + d + "," + cells + "," + box.get();
        }
    }

    public static void publish() {
        box.label = "hello";
        box.next = new Box(8);
        box.next.ratio = 2.5;
        flag = 1;
    }

    public static String receive() {
        while (flag == 0) {
            Thread.onSpinWait();
        }
        return box.label + "," + box.next.ratio + "," + box.next.fixed;
    }

    public static void produce(int n) throws InterruptedException {
        for (int i = 1; i <= n; i++) {
            slot.put(i);
        }
    }

    public static long consume(int n) throws InterruptedException {
        long sum = 0;
        for (int i = 1; i <= n; i++) {
            sum += slot.take();
        }
        return sum;
    }
}
