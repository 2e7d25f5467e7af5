package conform;

/**
 * A concurrent hash table of program classes with one lock per bucket (chained nodes, value-based keys): threads on
 * every node insert, update and remove disjoint and overlapping keys; main checks size and contents.
 */
final class StripedTable implements Conform.Case {
    /** A key with hand-written equals and hashCode (record keys: case recordmethods). */
    static final class Key {
        final String name;
        final int n;

        Key(String name, int n) {
            this.name = name;
            this.n = n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.n == n && k.name.equals(name);
        }

        @Override
        public int hashCode() {
            return name.hashCode() * 31 + n;
        }
    }

    static final class Entry {
        final Key key;
        long value;
        Entry next;

        Entry(Key key, long value, Entry next) {
            this.key = key;
            this.value = value;
            this.next = next;
        }
    }

    static final class Bucket {
        Entry head;
        int size;
    }

    static final class Table {
        private final Bucket[] buckets;

        Table(int n) {
            buckets = new Bucket[n];
            for (int i = 0; i < n; i++) {
                buckets[i] = new Bucket();
            }
        }

        private Bucket bucket(Key k) {
            return buckets[Math.floorMod(k.hashCode(), buckets.length)];
        }

        void add(Key k, long delta) {
            Bucket b = bucket(k);
            synchronized (b) {
                for (Entry e = b.head; e != null; e = e.next) {
                    if (e.key.equals(k)) {
                        e.value += delta;
                        return;
                    }
                }
                b.head = new Entry(k, delta, b.head);
                b.size++;
            }
        }

        boolean remove(Key k) {
            Bucket b = bucket(k);
            synchronized (b) {
                Entry prev = null;
                for (Entry e = b.head; e != null; prev = e, e = e.next) {
                    if (e.key.equals(k)) {
                        if (prev == null) {
                            b.head = e.next;
                        } else {
                            prev.next = e.next;
                        }
                        b.size--;
                        return true;
                    }
                }
                return false;
            }
        }

        long get(Key k) {
            Bucket b = bucket(k);
            synchronized (b) {
                for (Entry e = b.head; e != null; e = e.next) {
                    if (e.key.equals(k)) {
                        return e.value;
                    }
                }
                return -1;
            }
        }

        int size() {
            int s = 0;
            for (Bucket b : buckets) {
                synchronized (b) {
                    s += b.size;
                }
            }
            return s;
        }
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Table table = new Table(8);
        int n = 4;
        int[] removed = new int[n];
        Thread[] ts = new Thread[n];
        for (int t = 0; t < n; t++) {
            int me = t;
            ts[t] = new Thread(() -> {
                for (int i = 0; i < 60; i++) {
                    table.add(new Key("shared", i % 20), me + 1);
                    table.add(new Key("own" + me, i), i);
                }
                for (int i = 0; i < 60; i += 3) {
                    removed[me] += table.remove(new Key("own" + me, i)) ? 1 : 0;
                }
            });
        }
        Conform.startJoin(ts);
        long shared = 0;
        for (int i = 0; i < 20; i++) {
            shared += table.get(new Key("shared", i));
        }
        out.println("size " + table.size() + " shared " + shared + " own0-1 " + table.get(new Key("own0", 1))
            + " own3-3 " + table.get(new Key("own3", 3)) + " removed " + (removed[0] + removed[1] + removed[2]
            + removed[3]));
    }
}
