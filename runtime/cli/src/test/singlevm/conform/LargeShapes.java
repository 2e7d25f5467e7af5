package conform;

/**
 * Large shapes: a linked list and a balanced tree of 100,000 objects each, built by a thread on another node and
 * published in one release (stored into main's object under its monitor), then walked by main; the same built by
 * main and walked by a thread on another node; an {@code int[]} of 1,000,000 elements written in stripes by a thread
 * on every node; a string of 1,000,000 chars in a shared field, written on another node and read on main's; 300
 * threads started at once. Not in the default list (it runs on 2 nodes only, to keep the system test short).
 */
final class LargeShapes implements Conform.Case {
    static final int COUNT = 100_000;

    static final class Link {
        final int value;
        Link next;

        Link(int value, Link next) {
            this.value = value;
            this.next = next;
        }
    }

    static final class Tree {
        int value;
        Tree left;
        Tree right;
    }

    static final class Holder {
        Link list;
        Tree tree;
        String text;
    }

    static Link list(int n) {
        Link head = null;
        for (int i = 0; i < n; i++) {
            head = new Link(i, head);
        }
        return head;
    }

    static String walk(Link head) {
        long sum = 0;
        int count = 0;
        int last = -1;
        for (Link l = head; l != null; l = l.next) {
            sum += (long) l.value * (count % 7 + 1);
            count++;
            last = l.value;
        }
        return count + " " + sum + " " + last;
    }

    static Tree tree(int lo, int hi) {
        if (lo > hi) {
            return null;
        }
        int mid = (lo + hi) >>> 1;
        Tree t = new Tree();
        t.value = mid;
        t.left = tree(lo, mid - 1);
        t.right = tree(mid + 1, hi);
        return t;
    }

    static long checksum(Tree t, int depth) {
        return t == null ? depth : t.value * 3L + checksum(t.left, depth + 1) * 5 + checksum(t.right, depth + 1);
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Holder fromOther = new Holder();
        Thread builder = new Thread(() -> {
            Link l = list(COUNT);
            Tree t = tree(0, COUNT - 1);
            synchronized (fromOther) {
                fromOther.list = l;
                fromOther.tree = t;
            }
        });
        Conform.startJoin(builder);
        synchronized (fromOther) {
            out.println("built there: list " + walk(fromOther.list) + " tree " + checksum(fromOther.tree, 0));
        }

        Holder fromMain = new Holder();
        fromMain.list = list(COUNT);
        fromMain.tree = tree(0, COUNT - 1);
        String[] walked = new String[1];
        Conform.startJoin(new Thread(() -> walked[0] = walk(fromMain.list) + " tree " + checksum(fromMain.tree, 0)));
        out.println("built here: list " + walked[0]);

        int[] big = new int[1_000_000];
        int stripes = 4;
        Thread[] writers = new Thread[stripes];
        for (int k = 0; k < stripes; k++) {
            int me = k;
            writers[k] = new Thread(() -> {
                for (int i = me; i < big.length; i += stripes) {
                    big[i] = i * 31 + me;
                }
            });
        }
        Conform.startJoin(writers);
        long sum = 0;
        for (int i = 0; i < big.length; i++) {
            sum = sum * 17 + big[i];
        }
        out.println("striped " + sum);

        Holder text = new Holder();
        Conform.startJoin(new Thread(() -> {
            StringBuilder b = new StringBuilder();
            for (int i = 0; i < 1_000_000; i++) {
                b.append((char) ('a' + i * 7 % 26));
            }
            text.text = b.toString();
        }));
        out.println("text " + text.text.length() + " " + text.text.hashCode() + " " + text.text.substring(999_990));

        int n = 300;
        long[] hits = new long[n];
        Thread[] many = new Thread[n];
        for (int k = 0; k < n; k++) {
            int me = k;
            many[k] = new Thread(() -> hits[me] = (long) me * me + 1);
        }
        Conform.startJoin(many);
        long total = 0;
        for (long h : hits) {
            total += h;
        }
        out.println("threads " + n + " " + total);
    }
}
