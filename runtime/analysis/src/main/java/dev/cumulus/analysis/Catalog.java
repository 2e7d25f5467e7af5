package dev.cumulus.analysis;

import java.util.Set;

/** Fixed lists of JDK types and methods the rules know by name. */
final class Catalog {
    private Catalog() {
    }

    static final String ROOT = "dev/cumulus/Cloud$Root";
    static final String NODE = "dev/cumulus/Cloud$Node";
    static final String CLUSTER = "dev/cumulus/Cluster";
    static final String TRANSFERABLE = "dev/cumulus/Transferable";
    static final String REMOTE = "java/rmi/Remote";

    static final Set<String> BOXES = Set.of("java/lang/Integer", "java/lang/Long", "java/lang/Short",
            "java/lang/Byte", "java/lang/Character", "java/lang/Boolean", "java/lang/Float", "java/lang/Double");

    /** JDK value classes that are immutable besides boxes and String. */
    static final Set<String> JDK_IMMUTABLE = Set.of("java/lang/String", "java/math/BigInteger",
            "java/math/BigDecimal", "java/time/Instant", "java/time/Duration", "java/time/LocalDate",
            "java/time/LocalTime", "java/time/LocalDateTime", "java/time/Period", "java/util/UUID");

    /** Known java.util collections and maps: allowed as cloud fields (CUM109), transferable (CUM108). */
    static final Set<String> COLLECTIONS = Set.of("java/util/Collection", "java/util/List", "java/util/Set",
            "java/util/Map", "java/util/Queue", "java/util/Deque", "java/util/SortedSet", "java/util/SortedMap",
            "java/util/NavigableSet", "java/util/NavigableMap", "java/util/SequencedCollection",
            "java/util/SequencedSet", "java/util/SequencedMap", "java/util/ArrayList", "java/util/LinkedList",
            "java/util/HashMap", "java/util/LinkedHashMap", "java/util/TreeMap", "java/util/HashSet",
            "java/util/LinkedHashSet", "java/util/TreeSet", "java/util/ArrayDeque", "java/util/PriorityQueue",
            "java/util/EnumMap", "java/util/EnumSet", "java/util/BitSet");

    /** Types whose calls on a value read out of a cloud field may mutate it (collections, views, iterators). */
    static final Set<String> MUTABLE_VIEWS = Set.of("java/util/Iterator", "java/util/ListIterator",
            "java/util/Map$Entry", "java/util/AbstractList", "java/util/AbstractMap", "java/util/AbstractCollection");

    static final Set<String> MUTATORS = Set.of("add", "addAll", "addFirst", "addLast", "remove", "removeAll",
            "removeIf", "removeFirst", "removeLast", "retainAll", "clear", "set", "put", "putAll", "putIfAbsent",
            "putFirst", "putLast", "replace", "replaceAll", "compute", "computeIfAbsent", "computeIfPresent", "merge",
            "sort", "push", "pop", "poll", "pollFirst", "pollLast", "pollFirstEntry", "pollLastEntry", "offer",
            "offerFirst", "offerLast", "setValue", "flip", "and", "or", "xor", "andNot", "trimToSize",
            "ensureCapacity");

    static boolean isCollectionLike(String internalName) {
        return COLLECTIONS.contains(internalName) || MUTABLE_VIEWS.contains(internalName);
    }

    /** Mutable JDK types (for static finals, CUM104). */
    static boolean isKnownMutableJdkType(String n) {
        return COLLECTIONS.contains(n) || n.startsWith("java/util/concurrent/") || n.equals("java/lang/StringBuilder")
                || n.equals("java/lang/StringBuffer") || n.equals("java/util/Random")
                || n.equals("java/util/Vector") || n.equals("java/util/Hashtable") || n.equals("java/util/Stack")
                || n.equals("java/util/IdentityHashMap") || n.equals("java/util/WeakHashMap");
    }

    private static final Set<String> IN_MEMORY_IO = Set.of("java/io/ByteArrayInputStream",
            "java/io/ByteArrayOutputStream", "java/io/StringReader", "java/io/StringWriter",
            "java/io/CharArrayReader", "java/io/CharArrayWriter", "java/io/Serializable", "java/io/Externalizable");

    /**
     * If calling {@code owner.name(desc)} is not well-behaved (CUM107), what it is ("reads the clock"); else null.
     */
    static String envCall(String owner, String name) {
        switch (owner) {
            case "java/lang/System" -> {
                return switch (name) {
                    case "currentTimeMillis", "nanoTime" -> "reads the clock";
                    case "getenv", "getProperty", "getProperties", "setProperty", "clearProperty", "lineSeparator",
                         "console", "exit", "load", "loadLibrary" -> "depends on the process environment";
                    case "identityHashCode" -> "uses an identity hash code, which differs between replicas";
                    default -> null;
                };
            }
            case "java/lang/Math", "java/lang/StrictMath" -> {
                return name.equals("random") ? "uses a random number generator" : null;
            }
            case "java/util/UUID" -> {
                return name.equals("randomUUID") ? "uses a random number generator" : null;
            }
            case "java/util/Random", "java/util/concurrent/ThreadLocalRandom", "java/security/SecureRandom",
                 "java/util/SplittableRandom", "java/util/random/RandomGenerator",
                 "java/util/random/RandomGeneratorFactory" -> {
                return "uses a random number generator";
            }
            case "java/lang/Runtime", "java/lang/ProcessBuilder", "java/lang/ProcessHandle" -> {
                return "depends on the process environment";
            }
            case "java/lang/Thread" -> {
                return switch (name) {
                    case "<init>", "start", "startVirtualThread", "ofPlatform", "ofVirtual" -> "creates a thread";
                    default -> null;
                };
            }
            case "java/util/concurrent/Executors", "java/util/concurrent/Executor",
                 "java/util/concurrent/ExecutorService", "java/util/concurrent/ScheduledExecutorService",
                 "java/util/concurrent/ForkJoinPool", "java/util/concurrent/ThreadPoolExecutor",
                 "java/lang/Thread$Builder", "java/lang/Thread$Builder$OfPlatform",
                 "java/lang/Thread$Builder$OfVirtual" -> {
                return "creates or uses threads";
            }
            case "java/util/concurrent/CompletableFuture" -> {
                return name.endsWith("Async") ? "creates or uses threads" : null;
            }
            case "java/time/Clock", "java/time/InstantSource" -> {
                return name.startsWith("system") || name.equals("instant") || name.equals("millis")
                        ? "reads the clock" : null;
            }
            default -> {
            }
        }
        if (owner.startsWith("java/time/") && name.equals("now")) {
            return "reads the clock";
        }
        boolean io = owner.startsWith("java/io/") || owner.startsWith("java/nio/file/")
                || owner.startsWith("java/nio/channels/") || owner.startsWith("java/net/");
        if (io && !IN_MEMORY_IO.contains(owner) && !owner.endsWith("Exception") && !owner.endsWith("Error")) {
            return "performs I/O";
        }
        return null;
    }

    /** Method names that look like reads (CUM120). */
    static boolean looksLikeRead(String name) {
        for (String p : new String[] {"get", "is", "has", "size", "count", "receive", "peek", "contains", "find"}) {
            if (name.equals(p)) {
                return true;
            }
            if (name.startsWith(p) && name.length() > p.length()) {
                char c = name.charAt(p.length());
                if (Character.isUpperCase(c) || Character.isDigit(c) || c == '_') {
                    return true;
                }
            }
        }
        return false;
    }
}
