package shipped.values;

/** What a path is. */
public enum Kind {
    OPEN, CLOSED
}
