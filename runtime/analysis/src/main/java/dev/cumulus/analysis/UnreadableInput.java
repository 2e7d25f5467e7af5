package dev.cumulus.analysis;

import java.util.Objects;

/**
 * A class file or classpath entry the analyzer could not read: a truncated or corrupt class file, a jar that is not a
 * zip file, an entry that cannot be inflated. It is an error, like an error finding: an unread class was not checked.
 *
 * @param location the file ({@code /p/classes/a/B.class}), the jar entry ({@code /p/lib.jar!/a/B.class}) or the jar
 * @param reason   what is wrong with it, one sentence
 */
public record UnreadableInput(String location, String reason) {
    public UnreadableInput {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(reason, "reason");
    }

    /** Compiler-style: {@code /p/classes/a/B.class: error: cannot read class file: truncated (rebuild it)}. */
    public String format() {
        return location + ": error: cannot read " + (location.endsWith(".class") ? "class file" : "classpath entry")
                + ": " + reason + " (it was not checked; rebuild it or remove it from the classpath)";
    }
}
