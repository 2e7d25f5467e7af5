package dev.cumulus.agent;

/** Internal names the agent matches and the fast "never a cloud class" test by name prefix. */
final class Names {
    static final String ROOT = "dev/cumulus/Cloud$Root";
    static final String NODE = "dev/cumulus/Cloud$Node";
    static final String CLUSTER = "dev/cumulus/Cluster";
    static final String HOOKS = "dev/cumulus/internal/cloud/CloudHooks";

    /** Libraries that never hold cloud classes; checked before anything else in the transformer. */
    private static final String[] SKIP = {
        "java/", "javax/", "jdk/", "sun/", "com/sun/", "io/aeron/", "org/agrona/", "picocli/", "org/junit/",
        "org/opentest4j/", "org/apiguardian/", "org/apache/maven/", "kotlin/", "scala/",
        "dev/cumulus/internal/", "dev/cumulus/analysis/", "dev/cumulus/agent/", "dev/cumulus/cli/",
        "dev/cumulus/profiler/", "dev/cumulus/lsp/", "dev/cumulus/array/", "dev/cumulus/pastset/",
    };

    private Names() {
    }

    /**
     * True for classes of the JDK, of the Cumulus runtime (the API package {@code dev/cumulus/} itself, its runtime
     * sub-packages and the shared arrays' and tuple space's API packages; {@code dev/cumulus/singlevm/}, whose shared
     * collections are woven like the program's, {@code dev/cumulus/examples/...} and other user code are not skipped)
     * and of its libraries.
     */
    static boolean skip(String internalName) {
        for (String p : SKIP) {
            if (internalName.startsWith(p)) {
                return true;
            }
        }
        return internalName.startsWith("dev/cumulus/") && internalName.indexOf('/', "dev/cumulus/".length()) < 0;
    }

    static String dotted(String internalName) {
        return internalName.replace('/', '.');
    }
}
