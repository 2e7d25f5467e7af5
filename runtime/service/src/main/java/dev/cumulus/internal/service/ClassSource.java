package dev.cumulus.internal.service;

/**
 * A client's classes, as its servers ask for them: every client of a standing cluster exports it, and a server's
 * {@link ClientClassLoader} for that client calls it for a class the server lacks.
 */
public interface ClassSource {
    long OBJECT_ID = 9;
    /** The largest class file a client ships. */
    int MAX_CLASS_BYTES = 4 * 1024 * 1024;

    /**
     * The class file of {@code className} as the client loads it, or {@code null} when the client has none (or it is
     * one of the runtime's or the JDK's own, which are never shipped).
     */
    byte[] classBytes(String className);

    /** Whether a class of this name may come from a client: never the JDK's ({@code java.*} ...) or Cumulus's own. */
    static boolean shippable(String className) {
        for (String prefix : new String[] {"java.", "javax.", "jdk.", "sun.", "com.sun.", "dev.cumulus."}) {
            if (className.startsWith(prefix)) {
                return false;
            }
        }
        return !className.isEmpty() && className.length() <= 1024;
    }
}
