package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassIndex.ResolvedField;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.ArrayStoreEvent;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.FieldEvent;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.lang.classfile.Opcode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The read/write classifier (Manta §3.1; docs/design/ANALYSIS.md): a cloud method is a write if it may assign a cloud
 * field or array element, call notify/notifyAll, mutate a collection held in a cloud field, or call a write method
 * (transitively, over every override in a cloud class of the analysed set). Caches each method's classification for
 * the lifetime of the analyzer; not thread-safe.
 */
final class Classifier {
    /** The first write found: its text in reason chains and where it is. */
    record WriteSite(String text, String className, String memberName, String sourceFile, int line) {
    }

    /** A method's access, its reason chain (empty for a read) and the write the chain ends in (null for a read). */
    record Classification(Access access, List<String> chain, WriteSite site) {
    }

    private static final Classification READ = new Classification(Access.READ, List.of(), null);

    private final ClassIndex index;
    private final Map<MethodInfo, Classification> done = new IdentityHashMap<>();
    private Map<String, List<String>> overrideIndex;

    Classifier(ClassIndex index) {
        this.index = index;
    }

    /**
     * Whether a method of a cloud class gets a reported classification: instance methods with code, not synthetic or
     * bridge, not constructors. (Synthetic lambda bodies are still classified: they make their callers writes.)
     */
    static boolean isReported(MethodInfo m) {
        return !m.isStatic && !m.isSynthetic && !m.isBridge && !m.isInit() && m.code != null;
    }

    /** The classification of a cloud method; computes it, and that of every cloud method it reaches, once. */
    Classification classify(MethodInfo start) {
        Classification have = done.get(start);
        if (have != null) {
            return have;
        }
        // the closure of cloud methods reachable through calls, each analysed once
        LinkedHashSet<MethodInfo> closure = new LinkedHashSet<>();
        Map<MethodInfo, List<MethodInfo>> edges = new IdentityHashMap<>();
        Deque<MethodInfo> work = new ArrayDeque<>(List.of(start));
        while (!work.isEmpty()) {
            MethodInfo m = work.pop();
            if (done.containsKey(m) || !closure.add(m)) {
                continue;
            }
            List<MethodInfo> targets = new ArrayList<>();
            if (m.code != null) {
                for (Event e : index.facts(m).events) {
                    if (e instanceof InvokeEvent ie) {
                        for (MethodInfo t : dispatchTargets(ie)) {
                            targets.add(t);
                            work.push(t);
                        }
                    }
                }
            }
            edges.put(m, targets);
        }
        Map<MethodInfo, Classification> local = new IdentityHashMap<>();
        for (MethodInfo m : closure) {
            WriteSite site = m.code == null ? null : directWrite(m);
            if (site != null) {
                local.put(m, new Classification(Access.WRITE, List.of(m.label(), site.text()), site));
            }
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (MethodInfo m : closure) {
                if (local.containsKey(m)) {
                    continue;
                }
                for (MethodInfo t : edges.get(m)) {
                    Classification tc = done.containsKey(t) ? done.get(t) : local.get(t);
                    if (tc != null && tc.access() == Access.WRITE) {
                        List<String> chain = new ArrayList<>();
                        chain.add(m.label());
                        chain.addAll(tc.chain());
                        local.put(m, new Classification(Access.WRITE, List.copyOf(chain), tc.site()));
                        changed = true;
                        break;
                    }
                }
            }
        }
        for (MethodInfo m : closure) {
            done.put(m, local.getOrDefault(m, READ));
        }
        return done.get(start);
    }

    /** The first primitive write in a cloud method's body, or null. */
    private WriteSite directWrite(MethodInfo m) {
        ClassInfo c = m.owner;
        for (Event e : index.facts(m).events) {
            switch (e) {
                case FieldEvent fe when fe.opcode() == Opcode.PUTFIELD || fe.opcode() == Opcode.PUTSTATIC -> {
                    Optional<ResolvedField> r = index.resolveField(fe.owner(), fe.name());
                    String decl = r.map(x -> x.decl().name).orElse(fe.owner());
                    if (index.isCloud(decl)) {
                        return new WriteSite(fe.opcode() + " " + ClassInfo.simple(decl) + "." + fe.name()
                                + c.at(fe.line()), decl, fe.name(), c.sourceFile, fe.line());
                    }
                }
                case ArrayStoreEvent as -> {
                    return new WriteSite(as.opcode() + (as.array().origin() != null ? " into " + as.array().origin()
                            : "") + c.at(as.line()), c.name, null, c.sourceFile, as.line());
                }
                case InvokeEvent ie when !ie.viaLambda() && ie.desc().equals("()V")
                        && (ie.name().equals("notify") || ie.name().equals("notifyAll")) -> {
                    return new WriteSite(ie.name() + "()" + c.at(ie.line()), c.name, null, c.sourceFile, ie.line());
                }
                case InvokeEvent ie when !ie.viaLambda() && ie.receiver() != null && ie.receiver().origin() != null
                        && Catalog.isCollectionLike(ie.owner()) && Catalog.MUTATORS.contains(ie.name()) -> {
                    String origin = ie.receiver().origin();
                    String field = origin.substring(origin.indexOf('.') + 1);
                    return new WriteSite(ClassInfo.display(ie.owner()) + "." + ie.name() + "() on " + origin
                            + c.at(ie.line()), c.name, field, c.sourceFile, ie.line());
                }
                default -> {
                }
            }
        }
        return null;
    }

    /** Cloud methods (with code) a call may run: the static binding plus every override in a cloud class. */
    private List<MethodInfo> dispatchTargets(InvokeEvent ie) {
        if (ie.name().equals("<init>") || ie.name().equals("<clinit>")) {
            return List.of();
        }
        LinkedHashSet<MethodInfo> out = new LinkedHashSet<>();
        index.resolveConcrete(ie.owner(), ie.name(), ie.desc()).filter(m -> index.isCloud(m.owner.name))
                .ifPresent(out::add);
        if (ie.opcode() == Opcode.INVOKEVIRTUAL || ie.opcode() == Opcode.INVOKEINTERFACE) {
            for (String s : overrideIndex().getOrDefault(ie.name() + ie.desc(), List.of())) {
                if (index.isSubtype(s, ie.owner())) {
                    index.info(s).flatMap(c -> c.method(ie.name(), ie.desc())).ifPresent(out::add);
                }
            }
        }
        return List.copyOf(out);
    }

    /** Name plus descriptor of each instance method with code, to the cloud classes of the analysed set having it. */
    private Map<String, List<String>> overrideIndex() {
        if (overrideIndex == null) {
            overrideIndex = new HashMap<>();
            for (String n : index.allNames()) {
                if (!index.isCloud(n)) {
                    continue;
                }
                index.info(n).ifPresent(c -> c.methods.stream()
                        .filter(m -> m.code != null && !m.isStatic && !m.isInit())
                        .forEach(m -> overrideIndex.computeIfAbsent(m.name + m.desc, k -> new ArrayList<>())
                                .add(c.name)));
            }
        }
        return overrideIndex;
    }
}
