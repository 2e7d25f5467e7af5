package dev.cumulus.analysis;

import java.util.Locale;

/** How serious a {@link Finding} is. The agent refuses a class only for {@link #ERROR} findings. */
public enum Severity {
    /** The class breaks a replication restriction; the agent refuses it, {@code cumulus check} fails. */
    ERROR,
    /** The class is legal but probably not what the author meant (e.g. a read-named write method). */
    WARNING;

    /** Lower-case name as printed in compiler-style output ({@code error}, {@code warning}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
