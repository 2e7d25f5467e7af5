package shipped.values;

import java.util.ArrayList;
import java.util.List;

/** Computes on the client's values where it lives (on a server that does not have their classes). */
public class GeometryImpl implements Geometry {
    private Point last;

    @Override
    public synchronized Point mid(Point a, Point b) {
        last = new Point((a.x() + b.x()) / 2, (a.y() + b.y()) / 2);
        return last;
    }

    @Override
    public Route extend(Route route, Point next) {
        List<Point> points = new ArrayList<>(route.points());
        points.add(next);
        return new Route(route.name(), points, next.equals(points.getFirst()) ? Kind.CLOSED : Kind.OPEN);
    }

    @Override
    public Note move(Note note, double dx, double dy) {
        return new Note(note.text() + " (decoded by " + note.getClass().getClassLoader().getName() + ")",
            new Point(note.at().x() + dx, note.at().y() + dy));
    }

    @Override
    public synchronized Point last() {
        return last;
    }

    @Override
    public Point check(Point p) throws OffTheMap {
        if (p.x() < 0 || p.x() > 1 || p.y() < 0 || p.y() > 1) {
            throw new OffTheMap(p + " is off the map");
        }
        return p;
    }
}
