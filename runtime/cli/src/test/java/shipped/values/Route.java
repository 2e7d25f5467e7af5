package shipped.values;

import java.util.List;

/** A record that holds other classes of the client: a list of its records and its enum. */
public record Route(String name, List<Point> points, Kind kind) {
}
