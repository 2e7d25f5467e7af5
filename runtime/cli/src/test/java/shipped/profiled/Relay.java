package shipped.profiled;

import shipped.admin.Counter;

/** A client's object that calls another object for its caller (a nested call). */
public interface Relay {
    /** Adds 1 to {@code target} {@code times} times; returns its total then. */
    int relay(Counter target, int times);
}
