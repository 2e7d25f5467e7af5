package conform;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code equals}, {@code hashCode} and {@code toString} overridden by program classes, called on copies on other
 * nodes; program objects as keys of a HashMap and HashSet made and used on one node only (allowed); identity of one
 * shared object reached through two paths on another node.
 */
final class Equality implements Conform.Case {
    static final class Point {
        final int x;
        final int y;
        String label;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Point p && p.x == x && p.y == y;
        }

        @Override
        public int hashCode() {
            return Objects.hash(x, y);
        }

        @Override
        public String toString() {
            return "(" + x + "," + y + (label == null ? "" : " " + label) + ")";
        }
    }

    static final class Pair {
        Point first;
        Point second;
    }

    static final class Report {
        String counts;
        boolean samePath;
        boolean equalNotSame;
        int hashSum;
        String text;
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Point[] pts = new Point[12];
        for (int i = 0; i < pts.length; i++) {
            pts[i] = new Point(i % 4, i % 2);
        }
        Pair pair = new Pair();
        pair.first = pts[5];
        pair.second = pts[5];
        Report[] reports = {new Report(), new Report()};
        Thread[] ts = new Thread[2];
        for (int k = 0; k < 2; k++) {
            Report r = reports[k];
            int me = k;
            ts[k] = new Thread(() -> {
                Map<Point, Integer> counts = new HashMap<>();
                Set<Point> set = new HashSet<>();
                for (Point p : pts) {
                    counts.merge(p, 1, Integer::sum);
                    set.add(p);
                    r.hashSum += p.hashCode();
                }
                r.counts = counts.size() + " " + set.size() + " " + counts.get(new Point(1, 1)) + " "
                    + set.contains(new Point(3, 1)) + " " + counts.containsKey(new Point(9, 9));
                r.samePath = pair.first == pair.second && pair.first == pts[5];
                r.equalNotSame = pts[0].equals(pts[4]) && pts[0] != pts[4];
                pts[6 + me].label = "by" + me;
                r.text = pair.first + " " + pts[11];
            });
        }
        Conform.startJoin(ts);
        int hashSum = 0;
        for (Point p : pts) {
            hashSum += p.hashCode();
        }
        for (Report r : reports) {
            out.println(r.counts + " " + r.samePath + " " + r.equalNotSame + " " + (r.hashSum == hashSum) + " "
                + r.text);
        }
        out.println(pts[6] + " " + pts[7] + " " + pts[6].equals(new Point(2, 0)) + " " + pts[0].equals(pts[4]));
    }
}
