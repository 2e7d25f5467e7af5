package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.FieldEvent;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import dev.cumulus.analysis.MethodFacts.LambdaEvent;
import java.lang.classfile.Opcode;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the single-VM rules (CUM2xx) share, computed once per analyzer over the whole program: which classes are the
 * program's own (woven, their objects shared between nodes), which JDK objects cannot leave the node that made them
 * (mirroring what the single-VM runtime sends by value), and which code a started thread may run, with the fields it
 * touches. Not thread-safe ({@link CloudAnalyzer} serializes calls).
 */
final class SingleVmFacts {
    static final String THREAD = "java/lang/Thread";
    static final String RUNNABLE = "java/lang/Runnable";

    /**
     * JDK values the runtime sends by value or shares (a plain {@code Object} is a shared lock); exceptions, also
     * sent by value, are found by their superclass ({@link #isThrowable}).
     */
    private static final Set<String> MOVABLE = Set.of("java/lang/String", "java/lang/Object", "java/lang/Class");

    /** Where thread code first touches a field: the method that touches it, and the line. */
    record Touch(MethodInfo method, int line) {
    }

    /** A JDK object a field may hold that cannot leave its node: its class and the line that stores it. */
    record Held(String type, ClassInfo where, int line) {
    }

    private final ClassIndex index;
    private Map<String, Touch> touchedByThreads;
    private Map<String, Held> heldForeign;

    SingleVmFacts(ClassIndex index) {
        this.index = index;
    }

    /**
     * The program's own classes: read from the analysed source (not the JDK) and not part of the Cumulus runtime
     * ({@code dev.cumulus} itself and its runtime packages; {@code dev.cumulus.examples} and user code count).
     */
    boolean isProgram(ClassInfo c) {
        return !c.fromJdk && !isRuntime(c.name) && !c.name.endsWith("package-info") && !c.name.equals("module-info");
    }

    private static boolean isRuntime(String n) {
        for (String p : List.of("dev/cumulus/internal/", "dev/cumulus/analysis/", "dev/cumulus/agent/",
                "dev/cumulus/cli/", "dev/cumulus/profiler/", "dev/cumulus/lsp/", "dev/cumulus/singlevm/")) {
            if (n.startsWith(p)) {
                return true;
            }
        }
        return n.startsWith("dev/cumulus/") && n.indexOf('/', "dev/cumulus/".length()) < 0;
    }

    private boolean isProgram(String name) {
        return index.info(name).map(this::isProgram).orElse(false);
    }

    /**
     * The JDK class of a value of this type (a field descriptor) that cannot leave the node that made it, else null:
     * a concrete class of {@code java.*}, {@code javax.*}, {@code jdk.*} or {@code sun.*} other than strings, boxed
     * primitives, {@code Class}, {@code Object} and enums (which the runtime moves by value or shares), or an array of
     * one. Interfaces and abstract classes give null: the object behind them may be a shared one.
     */
    String foreignType(String desc) {
        if (desc == null) {
            return null;
        }
        if (desc.startsWith("[")) {
            return foreignType(desc.substring(1));
        }
        if (!desc.startsWith("L")) {
            return null;
        }
        String n = desc.substring(1, desc.length() - 1);
        boolean jdk = n.startsWith("java/") || n.startsWith("javax/") || n.startsWith("jdk/") || n.startsWith("sun/");
        if (!jdk || MOVABLE.contains(n) || Catalog.BOXES.contains(n)) {
            return null;
        }
        Optional<ClassInfo> c = index.info(n);
        if (c.isEmpty() || c.get().isInterface || c.get().isAbstract || c.get().isEnum || isThrowable(n)) {
            return null;
        }
        return n;
    }

    /** Whether JDK class {@code n} is an exception: the runtime sends those by value. */
    private boolean isThrowable(String n) {
        for (String k = n; k != null; k = index.info(k).map(i -> i.superName).orElse(null)) {
            if (k.equals("java/lang/Throwable")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Fields (key {@code Owner.name}, owner the declaring class) that may hold a JDK object that cannot leave its node:
     * declared with such a concrete type (not {@code Thread}, whose program subclasses are shared), or assigned a
     * value of one anywhere in the program.
     */
    Map<String, Held> heldForeign() {
        if (heldForeign == null) {
            heldForeign = new LinkedHashMap<>();
            for (String name : index.allNames()) {
                ClassInfo c = index.info(name).filter(this::isProgram).orElse(null);
                if (c == null) {
                    continue;
                }
                for (MethodInfo m : c.methods) {
                    for (Event e : index.facts(m).events) {
                        if (e instanceof FieldEvent fe && fe.value() != null
                                && (fe.opcode() == Opcode.PUTFIELD || fe.opcode() == Opcode.PUTSTATIC)) {
                            String type = foreignType(fe.value().type());
                            String key = declared(fe.owner(), fe.name());
                            if (type != null && key != null) {
                                heldForeign.putIfAbsent(key, new Held(type, c, fe.line()));
                            }
                        }
                    }
                }
                for (ClassInfo.FieldInfo f : c.fields) {
                    String type = foreignType(f.desc());
                    if (type != null && !type.equals(THREAD)) {
                        heldForeign.putIfAbsent(c.name + "." + f.name(), new Held(type, c, index.fieldLine(c, f.name())));
                    }
                }
            }
        }
        return heldForeign;
    }

    /** {@code Decl.name} for the program field {@code owner.name} refers to, or null if it is not a program field. */
    String declared(String owner, String name) {
        return index.resolveField(owner, name).filter(r -> isProgram(r.decl()))
                .map(r -> r.decl().name + "." + name).orElse(null);
    }

    /**
     * Program fields (key {@code Decl.name}) that code a started thread may run reads or writes, with the first such
     * access. Thread code: {@code run()} of the program's {@code Thread} subclasses and {@code Runnable} classes, the
     * bodies of {@code Runnable} lambdas, and the program methods they call (static binding, plus every program
     * override of a called method).
     */
    Map<String, Touch> touchedByThreads() {
        if (touchedByThreads == null) {
            touchedByThreads = new LinkedHashMap<>();
            Deque<MethodInfo> work = new ArrayDeque<>();
            Map<MethodInfo, Boolean> seen = new java.util.IdentityHashMap<>();
            for (String name : index.allNames()) {
                ClassInfo c = index.info(name).filter(this::isProgram).orElse(null);
                if (c == null) {
                    continue;
                }
                if (!c.isInterface && (index.isSubtype(c.name, THREAD) || index.isSubtype(c.name, RUNNABLE))) {
                    c.method("run", "()V").filter(m -> m.code != null).ifPresent(work::add);
                }
                for (MethodInfo m : c.methods) {
                    for (Event e : index.facts(m).events) {
                        if (e instanceof LambdaEvent le && le.functionalInterface().equals(RUNNABLE)) {
                            index.info(le.implOwner()).filter(this::isProgram)
                                    .flatMap(o -> o.method(le.implName(), le.implDesc())).ifPresent(work::add);
                        }
                    }
                }
            }
            while (!work.isEmpty()) {
                MethodInfo m = work.poll();
                if (seen.put(m, Boolean.TRUE) != null || m.code == null) {
                    continue;
                }
                for (Event e : index.facts(m).events) {
                    if (e instanceof FieldEvent fe) {
                        String key = declared(fe.owner(), fe.name());
                        if (key != null) {
                            touchedByThreads.putIfAbsent(key, new Touch(m, fe.line()));
                        }
                    } else if (e instanceof InvokeEvent ie && isProgram(ie.owner())) {
                        index.resolveConcrete(ie.owner(), ie.name(), ie.desc()).filter(t -> isProgram(t.owner))
                                .ifPresent(work::add);
                        if (ie.opcode() == Opcode.INVOKEVIRTUAL || ie.opcode() == Opcode.INVOKEINTERFACE) {
                            overrides(ie).forEach(work::add);
                        }
                    }
                }
            }
        }
        return touchedByThreads;
    }

    private final Map<String, List<MethodInfo>> overrideCache = new HashMap<>();

    /** Program methods with the call's name and descriptor in program subtypes of its owner. */
    private List<MethodInfo> overrides(InvokeEvent ie) {
        return overrideCache.computeIfAbsent(ie.owner() + "." + ie.name() + ie.desc(), k -> index.allNames().stream()
                .map(index::info).flatMap(Optional::stream).filter(this::isProgram)
                .filter(c -> !c.name.equals(ie.owner()) && index.isSubtype(c.name, ie.owner()))
                .flatMap(c -> c.method(ie.name(), ie.desc()).stream()).filter(m -> m.code != null).toList());
    }

    /** True for a program class whose instances are a thread's task: a {@code Thread} subclass or a Runnable. */
    boolean isTaskClass(String name) {
        return index.info(name).filter(this::isProgram).filter(c -> !c.isInterface)
                .map(c -> index.isSubtype(c.name, THREAD) || index.isSubtype(c.name, RUNNABLE)).orElse(false);
    }
}
