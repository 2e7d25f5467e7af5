package dev.cumulus.profiler.figures;

import java.util.Set;

/**
 * Which objects are the runtime's own rather than the program's: names starting {@code cumulus.} (a prefix user
 * exports may not use: the name directory {@code cumulus.names}, the factory, the migration service, the capability
 * services {@code cumulus.ArrayService}, ...) and the shared arrays' and tuple space's services under their plain
 * names. Figures list them apart ({@code internal}); an {@code other} object ({@code Event key}) is the runtime's when
 * its key is.
 */
public final class RuntimeObjects {
    /** Names the runtime keeps for itself. */
    public static final String PREFIX = "cumulus.";
    /** The capability services' interfaces, as a call through them may be named. */
    static final Set<String> SERVICES = Set.of("ArrayService", "PastSetService", "HeapService");

    private RuntimeObjects() {
    }

    /** Whether the object {@code name} of {@code kind} is the runtime's own. */
    public static boolean isInternal(String kind, String name) {
        if (name == null) {
            return false;
        }
        String key = name;
        if ("other".equals(kind)) {
            int space = name.indexOf(' ');
            key = space < 0 ? "" : name.substring(space + 1);
        }
        return key.startsWith(PREFIX) || SERVICES.contains(key);
    }
}
