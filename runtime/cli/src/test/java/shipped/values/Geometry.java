package shipped.values;

/** A client's object whose arguments and results are of the client's own classes. */
public interface Geometry {
    /** The point halfway between {@code a} and {@code b}. */
    Point mid(Point a, Point b);

    /** {@code route} with {@code next} added at its end, closed when {@code next} is its first point. */
    Route extend(Route route, Point next);

    /** The note moved by ({@code dx}, {@code dy}), its text saying which class loader decoded it. */
    Note move(Note note, double dx, double dy);

    /** The last point {@link #mid} returned (held in a field of the client's record type: it moves with the object). */
    Point last();

    /** Throws {@link OffTheMap} for a point outside the unit square, else returns it. */
    Point check(Point p) throws OffTheMap;
}
