package conform;

/**
 * A record's generated {@code equals}, {@code hashCode} and {@code toString} called on another node before any woven
 * code there read the record's fields (their {@code ObjectMethods} bootstrap reads the fields through method
 * handles): records made on main's node, compared, hashed and printed by a thread on the next node, as keys of a
 * table of the program's own classes, then records made there compared on main's node.
 */
final class RecordMethods implements Conform.Case {
    record Point(int x, int y) {
    }

    record Named(String name, Point at) {
    }

    /** A small chained hash table of the program's own classes, keyed by records. */
    static final class Table {
        static final class Entry {
            final Object key;
            int count;
            Entry next;

            Entry(Object key, Entry next) {
                this.key = key;
                this.next = next;
            }
        }

        final Entry[] buckets = new Entry[16];
        int size;

        void add(Object key) {
            int b = Math.floorMod(key.hashCode(), buckets.length);
            for (Entry e = buckets[b]; e != null; e = e.next) {
                if (e.key.equals(key)) {
                    e.count++;
                    return;
                }
            }
            buckets[b] = new Entry(key, buckets[b]);
            buckets[b].count = 1;
            size++;
        }
    }

    static final class Shared {
        Point[] points;
        Named named;
        String seen;
        Table table;
        Point madeThere;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Shared s = new Shared();
        s.points = new Point[40];
        for (int i = 0; i < s.points.length; i++) {
            s.points[i] = new Point(i % 20, i % 20 * 3);
        }
        s.named = new Named("origin", new Point(0, 0));
        Thread t = new Thread(() -> {
            Table table = new Table();
            for (Point p : s.points) {
                table.add(p);
            }
            s.seen = s.named + " " + s.named.equals(new Named("origin", new Point(0, 0))) + " "
                + (s.named.hashCode() == new Named("origin", new Point(0, 0)).hashCode()) + " "
                + s.points[3].equals(s.points[23]) + " " + s.points[3].equals(s.points[4]);
            s.table = table;
            s.madeThere = new Point(7, 21);
        });
        Conform.startJoin(t);
        out.println(s.seen);
        int counted = 0;
        for (Table.Entry e : s.table.buckets) {
            for (; e != null; e = e.next) {
                counted += e.count;
            }
        }
        out.println("table size " + s.table.size + " counted " + counted);
        out.println(s.madeThere + " " + s.madeThere.equals(s.points[7]) + " "
            + (s.madeThere.hashCode() == s.points[7].hashCode()));
    }
}
