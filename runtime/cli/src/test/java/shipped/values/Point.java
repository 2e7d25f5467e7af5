package shipped.values;

/** A point in the plane: a record only the client has. */
public record Point(double x, double y) {
}
