package dev.cumulus.analysis;

import java.util.List;
import java.util.Optional;

/**
 * The rule catalogue shared by the agent, {@code cumulus check} and the language server. Ids are stable (DESIGN.md
 * §4); each has a page under {@code docs/rules/}. CUM1xx are the replication restrictions of clouds, always checked;
 * CUM2xx the single-VM mode's ({@link Rule#singleVm()}), checked only when the analyzer is made for it
 * ({@link CloudAnalyzer#CloudAnalyzer(ClassSource, boolean)}).
 */
public final class Rules {
    private Rules() {
    }

    public static final Rule CUM101 = new Rule("CUM101", "not both Root and Node", Severity.ERROR,
            "A class may not implement both Cloud.Root and Cloud.Node (directly or through supertypes): a class is "
                    + "either the entry point of a cloud or an object owned by one, which keeps clouds separate.",
            "implement either Cloud.Root or Cloud.Node, not both");

    public static final Rule CUM102 = new Rule("CUM102", "cloud classes are not remote objects", Severity.ERROR,
            "A cloud class may not be a remote object: it may not implement java.rmi.Remote, and no instance or class "
                    + "of it may be published with Cluster.export or Cluster.remoteNew. Replicas are local copies; "
                    + "a remote reference would be shared by all of them.",
            "replicate it with cluster.replicated(...) or export a separate non-cloud object");

    public static final Rule CUM103 = new Rule("CUM103", "no remote references in clouds", Severity.ERROR,
            "Fields, parameters and results of cloud classes may not be remote objects (java.rmi.Remote subtypes, or "
                    + "interfaces the program exports, looks up or creates remotely). Every replica would call the "
                    + "remote object: the nested invocation problem (Manta §2.2).",
            "pass the values the cloud needs instead of a remote reference");

    public static final Rule CUM104 = new Rule("CUM104", "no mutable static state", Severity.ERROR,
            "Cloud classes may not have mutable static fields (non-final, or final of a mutable type such as an array "
                    + "or a collection), and cloud methods may not read or write other classes' mutable statics: "
                    + "statics are shared by all clouds and can change outside the broadcast order.",
            "make it an instance field of the cloud");

    public static final Rule CUM105 = new Rule("CUM105", "no references between clouds", Severity.ERROR,
            "A cloud object may not refer to another cloud: roots may not hold root types, and a node may refer only "
                    + "to the root of its own cloud (a root whose field types reach the node class).",
            "keep the other cloud's name or id and look it up, or merge the two clouds");

    public static final Rule CUM106 = new Rule("CUM106", "cloud fields are private to the cloud", Severity.ERROR,
            "Fields of cloud classes may be read and written only by cloud code: an access from another class bypasses "
                    + "the read/write classification, so a write would not be broadcast. A public or protected "
                    + "instance field of a cloud class is a warning at the field, before any outside access.",
            "make the field private and add a cloud method that reads or writes it");

    public static final Rule CUM107 = new Rule("CUM107", "only well-behaved calls", Severity.ERROR,
            "Cloud methods run on every replica and must produce identical results everywhere: no time, randomness, "
                    + "I/O, environment (getenv, system properties), identity hash codes or thread creation, "
                    + "directly or through helper methods of other classes.",
            "compute the value outside the cloud and pass it in as an argument");

    public static final Rule CUM108 = new Rule("CUM108", "transferable parameters and results", Severity.ERROR,
            "Arguments and results of public root methods are passed by value and must be transferable: primitives, "
                    + "boxes, String, arrays of transferables, records, enums, java.util collections and maps, "
                    + "classes annotated @dev.cumulus.Transferable, or Cloud.Root types (which arrive as the local "
                    + "replica).",
            "use a transferable type (record, enum, collection, @Transferable class)");

    public static final Rule CUM109 = new Rule("CUM109", "cloud fields hold cloud objects or values", Severity.ERROR,
            "Objects reachable from a cloud must be cloud objects, arrays, immutable values (primitives, boxes, "
                    + "String, records of immutables, enums) or known java.util collections (whose mutators count "
                    + "as writes); other objects could change without the classifier seeing a write.",
            "make the class a Cloud.Node, or use a record, an array or a java.util collection");

    public static final Rule CUM120 = new Rule("CUM120", "read-named method is a write", Severity.WARNING,
            "A method named like a read (get*, is*, has*, size, count*, receive*, peek*, contains*, find*) is "
                    + "classified as a write, so every call is broadcast to all replicas (Manta §4.6: a receive that "
                    + "counts its calls).",
            "move the assignment out of the method, or rename it if it really writes");

    public static final Rule CUM201 = new Rule("CUM201", "JDK objects stay on their node", Severity.WARNING,
            "With --single-vm a started thread may run on another node, and a JDK object that is not a value (a "
                    + "HashMap, an ArrayList, a StringBuilder, an AtomicInteger...: anything of java.* but strings, "
                    + "boxed primitives, enum constants, classes and plain Object locks) cannot leave the node that "
                    + "made it: reaching it from another node fails. Reported where one escapes to thread code: a "
                    + "program field that holds one and that thread code touches, a thread task's constructor "
                    + "given one, a Runnable lambda given to new Thread that captures one.",
            "use a shared collection (SingleVm.list, SingleVm.map, SingleVm.priorityQueue) or a program class, or "
                    + "make the object inside the thread");

    public static final Rule CUM202 = new Rule("CUM202", "no native methods in single-VM programs", Severity.ERROR,
            "With --single-vm every program class is woven so that its objects live in the shared heap; native code "
                    + "would read and write them behind the woven code, so a program class with a native method is "
                    + "refused when it loads.",
            "move the native method into a library class outside the program (a JDK or dependency class)");

    public static final Rule CUM203 = new Rule("CUM203", "JDK thread pools stay on one node", Severity.WARNING,
            "With --single-vm the threads a program starts itself spread over the nodes, but threads made inside JDK "
                    + "code (Executors.new*, ThreadPoolExecutor, ForkJoinPool, the common pool) all run on the node "
                    + "that made the pool: the work does not spread.",
            "use SingleVm.executor(n), whose workers are spread over the nodes round robin");

    public static final Rule CUM204 = new Rule("CUM204", "enum constants hold no mutable state", Severity.WARNING,
            "With --single-vm every node runs an enum's initializer and has its own enum constants (a constant moves "
                    + "between nodes by name), so a value written to a non-final field of an enum on one node is "
                    + "never seen by threads on the others. Reported on each non-final field of a program enum.",
            "keep the state in an object of a program class, e.g. an array indexed by ordinal() in a shared object");

    public static final Rule CUM205 = new Rule("CUM205", "interface statics hold no mutable state", Severity.WARNING,
            "With --single-vm every node runs an interface's initializer and has its own copies of its static fields, "
                    + "so an array or another mutable object held there and written on one node is not seen on the "
                    + "others. Reported on an interface field whose type is not an immutable value (primitives, "
                    + "String, boxes, enums, Class, records of those).",
            "move the field to a static field of a class");

    public static final Rule CUM206 = new Rule("CUM206", "no locks on JDK values", Severity.WARNING,
            "With --single-vm strings and boxed primitives move between nodes by value, and a JDK object's monitor "
                    + "is node-local: threads on different nodes that synchronize on the same String, box or JDK "
                    + "class's Class (or wait and notify on it) do not exclude or wake each other. Reported at a "
                    + "synchronized block or a wait/notify call on a value of type String or a box (a string literal, "
                    + "Integer.valueOf(...), a field or local of such a type) or on a JDK class literal.",
            "lock a program object (a plain new Object() in a final field will do) or a program class's Class");

    public static final Rule CUM207 = new Rule("CUM207", "no handles on program fields", Severity.WARNING,
            "With --single-vm a program's reads and writes of fields and array elements go through the woven code, "
                    + "which fills a node's copy of an object from its home and writes it back; reflection through "
                    + "Field and Array is woven too. A VarHandle, a field getter or setter method handle, an array "
                    + "element handle or an Atomic*FieldUpdater reaches the field past it: on another node's copy it "
                    + "reads stale values, and its writes (a compareAndSet too) never reach the home. Reported where "
                    + "program code makes one (Lookup.findVarHandle, findGetter, unreflectSetter and the like, "
                    + "MethodHandles.arrayElementVarHandle, Atomic*FieldUpdater.newUpdater).",
            "use the field under the object's monitor (a compare-and-set as a synchronized method), a volatile "
                    + "field, or Field's getters and setters");

    private static final List<Rule> ALL = List.of(CUM101, CUM102, CUM103, CUM104, CUM105, CUM106, CUM107, CUM108,
            CUM109, CUM120, CUM201, CUM202, CUM203, CUM204, CUM205, CUM206, CUM207);

    /** Every rule, in id order. */
    public static List<Rule> all() {
        return ALL;
    }

    /** The rule with this id, if any. */
    public static Optional<Rule> byId(String id) {
        return ALL.stream().filter(r -> r.id().equals(id)).findFirst();
    }
}
