package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.ArrayStoreEvent;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.FieldEvent;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.MethodSignature;
import java.lang.classfile.Opcode;
import java.lang.classfile.Signature;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The analysis proper: class lookup and hierarchy, the read/write classifier and the rule checks. Not thread-safe;
 * {@link CloudAnalyzer} serializes calls. Caches everything it computes for the lifetime of the analyzer.
 */
final class Engine {
    private final ClassSource source;
    private final Map<String, Optional<ClassInfo>> classes = new HashMap<>();
    private final Map<String, Set<String>> supertypes = new HashMap<>();
    private List<String> allNames;
    private Set<String> remoteIfaces;
    private Map<String, List<String>> overrideIndex;
    private Map<String, Set<String>> nodeRoots;
    private final Map<MethodInfo, Classif> classifs = new IdentityHashMap<>();
    private final Map<MethodInfo, Optional<EnvPath>> envPaths = new IdentityHashMap<>();

    Engine(ClassSource source) {
        this.source = source;
    }

    // ------------------------------------------------------------------ classes and hierarchy

    Optional<ClassInfo> info(String name) {
        if (name == null) {
            return Optional.empty();
        }
        Optional<ClassInfo> have = classes.get(name);
        if (have != null) {
            return have;
        }
        Optional<ClassInfo> ci = source.classBytes(name).flatMap(ClassInfo::parse);
        if (ci.isEmpty() && isJdkName(name)) {
            ci = jdkBytes(name).flatMap(ClassInfo::parse);
            ci.ifPresent(c -> c.fromJdk = true);
        }
        classes.put(name, ci);
        return ci;
    }

    private static boolean isJdkName(String n) {
        return n.startsWith("java/") || n.startsWith("javax/") || n.startsWith("jdk/") || n.startsWith("sun/");
    }

    /** Reads (never loads) a JDK class file from the running JDK's image. */
    private static Optional<byte[]> jdkBytes(String name) {
        try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(name + ".class")) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    List<String> allNames() {
        if (allNames == null) {
            allNames = source.allClassNames().toList();
        }
        return allNames;
    }

    Set<String> supertypes(String name) {
        Set<String> have = supertypes.get(name);
        if (have != null) {
            return have;
        }
        supertypes.put(name, Set.of(name)); // cycle guard for broken hierarchies
        Set<String> out = new LinkedHashSet<>();
        out.add(name);
        info(name).ifPresent(c -> {
            if (c.superName != null) {
                out.addAll(supertypes(c.superName));
            }
            for (String i : c.interfaces) {
                out.addAll(supertypes(i));
            }
        });
        Set<String> result = Set.copyOf(out);
        supertypes.put(name, result);
        return result;
    }

    boolean isSubtype(String sub, String sup) {
        return sub != null && (sub.equals(sup) || supertypes(sub).contains(sup));
    }

    boolean isRoot(String n) {
        return n != null && !n.equals(Catalog.ROOT) && isSubtype(n, Catalog.ROOT);
    }

    boolean isNode(String n) {
        return n != null && !n.equals(Catalog.NODE) && isSubtype(n, Catalog.NODE);
    }

    boolean isCloud(String n) {
        return isRoot(n) || isNode(n);
    }

    private boolean isEnum(String n) {
        return info(n).map(c -> c.isEnum).orElse(false);
    }

    private boolean isRecord(String n) {
        return info(n).map(c -> c.isRecord).orElse(false);
    }

    record ResolvedField(ClassInfo decl, FieldInfo field) {
    }

    Optional<ResolvedField> resolveField(String owner, String name) {
        for (String t : supertypes(owner)) {
            Optional<ClassInfo> c = info(t);
            if (c.isPresent()) {
                Optional<FieldInfo> f = c.get().field(name);
                if (f.isPresent()) {
                    return Optional.of(new ResolvedField(c.get(), f.get()));
                }
            }
        }
        return Optional.empty();
    }

    /** The method a call on {@code owner} binds to statically: superclass chain first, then default methods. */
    Optional<MethodInfo> resolveConcrete(String owner, String name, String desc) {
        String cur = owner;
        while (cur != null) {
            Optional<ClassInfo> c = info(cur);
            if (c.isEmpty()) {
                break;
            }
            Optional<MethodInfo> m = c.get().method(name, desc);
            if (m.isPresent() && m.get().code != null) {
                return m;
            }
            cur = c.get().superName;
        }
        for (String t : supertypes(owner)) {
            Optional<MethodInfo> m = info(t).flatMap(c -> c.method(name, desc));
            if (m.isPresent() && m.get().code != null && !m.get().isStatic) {
                return m;
            }
        }
        return Optional.empty();
    }

    MethodFacts facts(MethodInfo m) {
        if (m.facts == null) {
            m.facts = m.code == null ? MethodFacts.EMPTY
                    : MethodFacts.compute(m.owner.name, m.isStatic, m.desc, m.code,
                    of -> resolveField(of[0], of[1]).map(r -> isCloud(r.decl().name)).orElse(false),
                    Catalog::isCollectionLike);
        }
        return m.facts;
    }

    // ------------------------------------------------------------------ global facts (computed once)

    private Map<String, List<String>> overrideIndex() {
        if (overrideIndex == null) {
            overrideIndex = new HashMap<>();
            for (String n : allNames()) {
                if (!isCloud(n)) {
                    continue;
                }
                info(n).ifPresent(c -> c.methods.stream()
                        .filter(m -> m.code != null && !m.isStatic && !m.isInit())
                        .forEach(m -> overrideIndex.computeIfAbsent(m.name + m.desc, k -> new ArrayList<>())
                                .add(c.name)));
            }
        }
        return overrideIndex;
    }

    /** Interfaces the analysed code passes as the {@code iface} class literal to Cluster.export/lookup/remoteNew. */
    Set<String> remoteIfaces() {
        if (remoteIfaces == null) {
            remoteIfaces = new HashSet<>();
            for (String n : allNames()) {
                Optional<ClassInfo> c = info(n);
                if (c.isEmpty() || !c.get().mentionsCumulus) {
                    continue;
                }
                for (MethodInfo m : c.get().methods) {
                    for (Event e : facts(m).events) {
                        if (e instanceof InvokeEvent ie && isClusterCall(ie) && ie.args().size() >= 2) {
                            String lit = ie.args().get(1).classLiteral();
                            if (lit != null) {
                                remoteIfaces.add(lit);
                            }
                        }
                    }
                }
            }
        }
        return remoteIfaces;
    }

    private boolean isClusterCall(InvokeEvent ie) {
        return (ie.name().equals("export") || ie.name().equals("lookup") || ie.name().equals("remoteNew"))
                && !ie.viaLambda() && isSubtype(ie.owner(), Catalog.CLUSTER);
    }

    boolean isRemoteType(String n) {
        return !isCloud(n) && (isSubtype(n, Catalog.REMOTE) || remoteIfaces().contains(n));
    }

    /** For each node class, the roots whose cloud it belongs to (reachable through field types). */
    private Map<String, Set<String>> nodeRoots() {
        if (nodeRoots == null) {
            nodeRoots = new HashMap<>();
            List<String> nodes = allNames().stream().filter(this::isNode).toList();
            for (String r : allNames()) {
                if (!isRoot(r) || isNode(r)) {
                    continue;
                }
                Deque<String> work = new ArrayDeque<>(List.of(r));
                Set<String> seen = new HashSet<>(work);
                while (!work.isEmpty()) {
                    String x = work.pop();
                    for (String t : supertypes(x)) {
                        for (FieldInfo f : info(t).map(c -> c.fields).orElse(List.of())) {
                            if (f.isStatic()) {
                                continue;
                            }
                            for (String ref : classNames(Signature.parseFrom(f.genericType()))) {
                                if (!isNode(ref)) {
                                    continue;
                                }
                                for (String sub : nodes) {
                                    if (isSubtype(sub, ref) && seen.add(sub)) {
                                        work.add(sub);
                                    }
                                }
                                if (seen.add(ref)) {
                                    work.add(ref);
                                }
                            }
                        }
                    }
                }
                seen.remove(r);
                for (String n : seen) {
                    nodeRoots.computeIfAbsent(n, k -> new HashSet<>()).add(r);
                }
            }
        }
        return nodeRoots;
    }

    // ------------------------------------------------------------------ signatures and type predicates

    private static String sigName(Signature.ClassTypeSig ct) {
        return ct.outerType().map(o -> sigName(o) + "$" + ct.className()).orElse(ct.className());
    }

    static List<String> classNames(Signature s) {
        List<String> out = new ArrayList<>();
        collect(s, out);
        return out;
    }

    private static void collect(Signature s, List<String> out) {
        switch (s) {
            case Signature.ArrayTypeSig a -> collect(a.componentSignature(), out);
            case Signature.ClassTypeSig ct -> {
                out.add(sigName(ct));
                for (Signature.TypeArg ta : ct.typeArgs()) {
                    if (ta instanceof Signature.TypeArg.Bounded b) {
                        collect(b.boundType(), out);
                    }
                }
            }
            default -> {
            }
        }
    }

    private enum Verdict { OK, BAD, CHECK_ARGS }

    /** The first class name in {@code s} the verdict rejects, or null. Type variables and wildcards pass. */
    private static String firstBad(Signature s, Function<String, Verdict> verdict) {
        switch (s) {
            case Signature.ArrayTypeSig a -> {
                return firstBad(a.componentSignature(), verdict);
            }
            case Signature.ClassTypeSig ct -> {
                String n = sigName(ct);
                Verdict v = verdict.apply(n);
                if (v == Verdict.BAD) {
                    return n;
                }
                if (v == Verdict.CHECK_ARGS) {
                    for (Signature.TypeArg ta : ct.typeArgs()) {
                        if (ta instanceof Signature.TypeArg.Bounded b) {
                            String bad = firstBad(b.boundType(), verdict);
                            if (bad != null) {
                                return bad;
                            }
                        }
                    }
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    private Verdict fieldVerdict(String n) {
        if (isCloud(n) || isImmutable(n, new HashSet<>())) {
            return Verdict.OK;
        }
        return Catalog.COLLECTIONS.contains(n) ? Verdict.CHECK_ARGS : Verdict.BAD;
    }

    private boolean isImmutable(String n, Set<String> seen) {
        if (Catalog.BOXES.contains(n) || Catalog.JDK_IMMUTABLE.contains(n) || isEnum(n)) {
            return true;
        }
        if (!isRecord(n)) {
            return false;
        }
        if (!seen.add(n)) {
            return true;
        }
        for (FieldInfo f : info(n).get().fields) {
            if (!f.isStatic() && !isImmutableSig(Signature.parseFrom(f.genericType()), seen)) {
                return false;
            }
        }
        return true;
    }

    private boolean isImmutableSig(Signature s, Set<String> seen) {
        return switch (s) {
            case Signature.BaseTypeSig b -> true;
            case Signature.ArrayTypeSig a -> false;
            case Signature.ClassTypeSig ct -> isImmutable(sigName(ct), seen);
            default -> true; // type variable: unknown
        };
    }

    private Verdict transferVerdict(String n, Set<String> seen) {
        if (Catalog.BOXES.contains(n) || n.equals("java/lang/String") || isEnum(n) || isRoot(n)
                || info(n).map(c -> c.annotations.contains(Catalog.TRANSFERABLE)).orElse(false)) {
            return Verdict.OK;
        }
        if (Catalog.COLLECTIONS.contains(n)) {
            return Verdict.CHECK_ARGS;
        }
        if (isRecord(n)) {
            if (!seen.add(n)) {
                return Verdict.OK;
            }
            for (FieldInfo f : info(n).get().fields) {
                if (!f.isStatic() && firstBad(Signature.parseFrom(f.genericType()),
                        x -> transferVerdict(x, seen)) != null) {
                    return Verdict.BAD;
                }
            }
            return Verdict.OK;
        }
        return Verdict.BAD;
    }

    /** A type whose static final fields are still mutable state (CUM104). */
    private boolean isMutableType(String desc) {
        if (desc.startsWith("[")) {
            return true;
        }
        if (!desc.startsWith("L")) {
            return false;
        }
        String n = ClassInfo.stripL(desc);
        if (Catalog.isKnownMutableJdkType(n) || isCloud(n)) {
            return true;
        }
        Optional<ClassInfo> c = info(n);
        if (c.isEmpty() || c.get().fromJdk || c.get().isEnum || c.get().isRecord || c.get().isInterface) {
            return false;
        }
        for (String t : supertypes(n)) {
            for (FieldInfo f : info(t).map(x -> x.fields).orElse(List.of())) {
                if (!f.isStatic() && !f.isFinal()) {
                    return true;
                }
            }
        }
        return false;
    }

    static String display(String internalName) {
        if (internalName.startsWith("[") || internalName.length() == 1) {
            return java.lang.constant.ClassDesc.ofDescriptor(internalName).displayName();
        }
        return ClassInfo.simple(internalName).replace('$', '.');
    }

    // ------------------------------------------------------------------ classification

    record WriteSite(String text, String className, String memberName, String sourceFile, int line) {
    }

    record Classif(Access access, List<String> chain, WriteSite site) {
    }

    private static final Classif READ = new Classif(Access.READ, List.of(), null);

    static String label(MethodInfo m) {
        return m.owner.simpleName() + "." + m.name + "()";
    }

    private static String at(ClassInfo c, int line) {
        return " at " + (c.sourceFile != null ? c.sourceFile : c.simpleName()) + (line > 0 ? ":" + line : "");
    }

    /** The first primitive write in a cloud method's body, or null. */
    private WriteSite directWrite(MethodInfo m) {
        ClassInfo c = m.owner;
        for (Event e : facts(m).events) {
            switch (e) {
                case FieldEvent fe when fe.opcode() == Opcode.PUTFIELD || fe.opcode() == Opcode.PUTSTATIC -> {
                    Optional<ResolvedField> r = resolveField(fe.owner(), fe.name());
                    String decl = r.map(x -> x.decl().name).orElse(fe.owner());
                    if (isCloud(decl)) {
                        return new WriteSite(fe.opcode() + " " + ClassInfo.simple(decl) + "." + fe.name()
                                + at(c, fe.line()), decl, fe.name(), c.sourceFile, fe.line());
                    }
                }
                case ArrayStoreEvent as -> {
                    return new WriteSite(as.opcode() + (as.array().origin() != null ? " into " + as.array().origin()
                            : "") + at(c, as.line()), c.name, null, c.sourceFile, as.line());
                }
                case InvokeEvent ie when !ie.viaLambda() && ie.desc().equals("()V")
                        && (ie.name().equals("notify") || ie.name().equals("notifyAll")) -> {
                    return new WriteSite(ie.name() + "()" + at(c, ie.line()), c.name, null, c.sourceFile, ie.line());
                }
                case InvokeEvent ie when !ie.viaLambda() && ie.receiver() != null && ie.receiver().origin() != null
                        && Catalog.isCollectionLike(ie.owner()) && Catalog.MUTATORS.contains(ie.name()) -> {
                    String origin = ie.receiver().origin();
                    String field = origin.substring(origin.indexOf('.') + 1);
                    return new WriteSite(display(ie.owner()) + "." + ie.name() + "() on " + origin + at(c, ie.line()),
                            c.name, field, c.sourceFile, ie.line());
                }
                default -> {
                }
            }
        }
        return null;
    }

    /** Cloud methods (with code) a call may run: the static binding plus every override in a cloud class. */
    List<MethodInfo> dispatchTargets(InvokeEvent ie) {
        if (ie.name().equals("<init>") || ie.name().equals("<clinit>")) {
            return List.of();
        }
        LinkedHashSet<MethodInfo> out = new LinkedHashSet<>();
        resolveConcrete(ie.owner(), ie.name(), ie.desc()).filter(m -> isCloud(m.owner.name)).ifPresent(out::add);
        if (ie.opcode() == Opcode.INVOKEVIRTUAL || ie.opcode() == Opcode.INVOKEINTERFACE) {
            for (String s : overrideIndex().getOrDefault(ie.name() + ie.desc(), List.of())) {
                if (isSubtype(s, ie.owner())) {
                    info(s).flatMap(c -> c.method(ie.name(), ie.desc())).ifPresent(out::add);
                }
            }
        }
        return List.copyOf(out);
    }

    Classif classify(MethodInfo start) {
        Classif have = classifs.get(start);
        if (have != null) {
            return have;
        }
        // the closure of cloud methods reachable through calls, each analysed once
        LinkedHashSet<MethodInfo> closure = new LinkedHashSet<>();
        Map<MethodInfo, List<MethodInfo>> edges = new IdentityHashMap<>();
        Deque<MethodInfo> work = new ArrayDeque<>(List.of(start));
        while (!work.isEmpty()) {
            MethodInfo m = work.pop();
            if (classifs.containsKey(m) || !closure.add(m)) {
                continue;
            }
            List<MethodInfo> targets = new ArrayList<>();
            if (m.code != null) {
                for (Event e : facts(m).events) {
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
        Map<MethodInfo, Classif> local = new IdentityHashMap<>();
        for (MethodInfo m : closure) {
            WriteSite site = m.code == null ? null : directWrite(m);
            if (site != null) {
                local.put(m, new Classif(Access.WRITE, List.of(label(m), site.text()), site));
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
                    Classif tc = classifs.containsKey(t) ? classifs.get(t) : local.get(t);
                    if (tc != null && tc.access() == Access.WRITE) {
                        List<String> chain = new ArrayList<>();
                        chain.add(label(m));
                        chain.addAll(tc.chain());
                        local.put(m, new Classif(Access.WRITE, List.copyOf(chain), tc.site()));
                        changed = true;
                        break;
                    }
                }
            }
        }
        for (MethodInfo m : closure) {
            classifs.put(m, local.getOrDefault(m, READ));
        }
        return classifs.get(start);
    }

    // ------------------------------------------------------------------ CUM107 through helper methods

    record EnvPath(List<String> chain, String what, RelatedLocation site) {
    }

    /** How a method of a non-cloud, non-JDK class reaches environment code, if it does. */
    private Optional<EnvPath> envPath(MethodInfo m, int depth) {
        Optional<EnvPath> have = envPaths.get(m);
        if (have != null) {
            return have;
        }
        envPaths.put(m, Optional.empty()); // cycle guard
        Optional<EnvPath> result = Optional.empty();
        if (m.code != null && depth < 12) {
            for (Event e : facts(m).events) {
                if (!(e instanceof InvokeEvent ie)) {
                    continue;
                }
                String what = Catalog.envCall(ie.owner(), ie.name());
                if (what != null) {
                    String call = callText(ie);
                    result = Optional.of(new EnvPath(List.of(label(m), call + at(m.owner, ie.line())), what,
                            new RelatedLocation(m.owner.name, m.name, m.owner.sourceFile, ie.line(),
                                    call + " " + what)));
                    break;
                }
                Optional<MethodInfo> t = helperTarget(ie);
                if (t.isPresent()) {
                    Optional<EnvPath> sub = envPath(t.get(), depth + 1);
                    if (sub.isPresent()) {
                        List<String> chain = new ArrayList<>();
                        chain.add(label(m));
                        chain.addAll(sub.get().chain());
                        result = Optional.of(new EnvPath(List.copyOf(chain), sub.get().what(), sub.get().site()));
                        break;
                    }
                }
            }
        }
        envPaths.put(m, result);
        return result;
    }

    /** The user (non-JDK, non-cloud) method a call binds to, for following helpers. */
    private Optional<MethodInfo> helperTarget(InvokeEvent ie) {
        if (ie.name().equals("<clinit>")) {
            return Optional.empty();
        }
        return resolveConcrete(ie.owner(), ie.name(), ie.desc())
                .filter(t -> !t.owner.fromJdk && !isCloud(t.owner.name));
    }

    private static String callText(InvokeEvent ie) {
        return ie.name().equals("<init>") ? "new " + display(ie.owner()) + "()"
                : display(ie.owner()) + "." + ie.name() + "()";
    }

    // ------------------------------------------------------------------ rule checks

    /** Findings located in class {@code c}, and the classifications of its methods if it is a cloud class. */
    void check(ClassInfo c, List<Finding> out, List<MethodClassification> classes) {
        boolean cloud = isCloud(c.name);
        if (cloud) {
            checkCloudClass(c, out, classes);
        }
        for (MethodInfo m : c.methods) {
            if (m.code == null) {
                continue;
            }
            for (Event e : facts(m).events) {
                if (!cloud && e instanceof FieldEvent fe
                        && (fe.opcode() == Opcode.GETFIELD || fe.opcode() == Opcode.PUTFIELD)) {
                    resolveField(fe.owner(), fe.name()).filter(r -> isCloud(r.decl().name)).ifPresent(r ->
                            out.add(finding(Rules.CUM106, c, m, fe.line(), "method '" + m.name + "' "
                                    + (fe.opcode() == Opcode.GETFIELD ? "reads" : "writes") + " field '"
                                    + r.decl().simpleName() + "." + fe.name() + "' of a cloud object from outside the cloud",
                                    List.of(new RelatedLocation(r.decl().name, fe.name(), r.decl().sourceFile,
                                            fieldLine(r.decl(), fe.name()), "the cloud field")))));
                }
                if (e instanceof InvokeEvent ie && c.mentionsCumulus && isClusterCall(ie)
                        && !ie.name().equals("lookup") && !ie.args().isEmpty()) {
                    MethodFacts.Value a0 = ie.args().get(0);
                    String published = ie.name().equals("export") ? a0.className() : a0.classLiteral();
                    if (published != null && isCloud(published)) {
                        ClassInfo pc = info(published).orElse(null);
                        out.add(finding(Rules.CUM102, c, m, ie.line(), "cloud class '" + display(published)
                                + "' is published as a remote object by Cluster." + ie.name(),
                                pc == null ? List.of() : List.of(new RelatedLocation(pc.name, null, pc.sourceFile,
                                        pc.classLine(), "the cloud class"))));
                    }
                }
            }
        }
    }

    private void checkCloudClass(ClassInfo c, List<Finding> out, List<MethodClassification> classes) {
        boolean root = isRoot(c.name);
        boolean node = isNode(c.name);
        if (root && node) {
            out.add(classFinding(Rules.CUM101, c, "class '" + c.simpleName()
                    + "' implements both Cloud.Root and Cloud.Node"));
        }
        if (isSubtype(c.name, Catalog.REMOTE)) {
            out.add(classFinding(Rules.CUM102, c, "cloud class '" + c.simpleName() + "' implements java.rmi.Remote"));
        }
        for (FieldInfo f : c.fields) {
            if (f.isSynthetic()) {
                continue;
            }
            Signature sig = Signature.parseFrom(f.genericType());
            int line = fieldLine(c, f.name());
            String remote = classNames(sig).stream().filter(this::isRemoteType).findFirst().orElse(null);
            if (remote != null) {
                out.add(fieldFinding(Rules.CUM103, c, f, line, "field '" + f.name() + "' refers to remote object type '"
                        + display(remote) + "'"));
            }
            if (f.isStatic()) {
                if (!f.isFinal()) {
                    out.add(fieldFinding(Rules.CUM104, c, f, line, "static field '" + f.name()
                            + "' is mutable state shared by all replicas"));
                } else if (isMutableType(f.desc())) {
                    out.add(fieldFinding(Rules.CUM104, c, f, line, "static final field '" + f.name() + "' holds a mutable "
                            + display(f.desc().startsWith("L") ? ClassInfo.stripL(f.desc()) : f.desc())
                            + " shared by all replicas"));
                }
                continue;
            }
            if (remote != null) {
                continue;
            }
            String otherRoot = null;
            for (String ref : classNames(sig)) {
                if (isRoot(ref) && (root || !nodeRoots().getOrDefault(c.name, Set.of()).contains(ref))) {
                    otherRoot = ref;
                    break;
                }
            }
            if (otherRoot != null) {
                out.add(fieldFinding(Rules.CUM105, c, f, line, root
                        ? "root '" + c.simpleName() + "' refers to the root of another cloud, '" + display(otherRoot)
                        + "', through field '" + f.name() + "'"
                        : "node '" + c.simpleName() + "' refers through field '" + f.name() + "' to root '"
                        + display(otherRoot) + "', which is not the root of its own cloud"));
                continue;
            }
            String bad = firstBad(sig, this::fieldVerdict);
            if (bad != null) {
                out.add(fieldFinding(Rules.CUM109, c, f, line, "field '" + f.name() + "' holds type '" + display(bad)
                        + "', which is neither a cloud object, an array, an immutable value nor a known collection"));
            }
        }
        for (MethodInfo m : c.methods) {
            boolean signatureReported = false;
            if (!m.isSynthetic && !m.name.equals("<clinit>")) {
                MethodSignature ms = MethodSignature.parseFrom(m.genericType());
                List<Signature> types = new ArrayList<>(ms.arguments());
                types.add(ms.result());
                for (Signature s : types) {
                    String remote = classNames(s).stream().filter(this::isRemoteType).findFirst().orElse(null);
                    if (remote != null) {
                        out.add(finding(Rules.CUM103, c, m, methodLine(m), "method '" + m.name + "' "
                                + (s == ms.result() ? "returns" : "takes a parameter of") + " remote object type '"
                                + display(remote) + "'", List.of()));
                        signatureReported = true;
                        break;
                    }
                }
                if (!signatureReported && root && m.isPublic && !m.isStatic && !m.isBridge && !m.isInit()
                        && !isObjectMethod(m)) {
                    for (Signature s : types) {
                        String bad = firstBad(s, n -> transferVerdict(n, new HashSet<>()));
                        if (bad != null) {
                            out.add(finding(Rules.CUM108, c, m, methodLine(m), "public root method '" + m.name + "' "
                                    + (s == ms.result() ? "returns" : "takes a parameter of") + " type '" + display(bad)
                                    + "', which is not transferable", List.of()));
                            break;
                        }
                    }
                }
            }
            if (m.code != null) {
                checkCloudCode(c, m, out);
            }
            if (!m.isStatic && !m.isSynthetic && !m.isBridge && !m.isInit() && m.code != null) {
                Classif k = classify(m);
                classes.add(new MethodClassification(c.name, m.name, m.desc, c.sourceFile, methodLine(m), k.access(),
                        k.chain()));
                if (k.access() == Access.WRITE && Catalog.looksLikeRead(m.name)) {
                    WriteSite s = k.site();
                    out.add(finding(Rules.CUM120, c, m, methodLine(m), "method '" + m.name
                            + "' looks like a read but is a write (" + String.join(" -> ", k.chain())
                            + "), so every call is broadcast to all replicas",
                            List.of(new RelatedLocation(s.className(), s.memberName(), s.sourceFile(), s.line(),
                                    "the write: " + s.text()))));
                }
            }
        }
    }

    private static boolean isObjectMethod(MethodInfo m) {
        return m.name.equals("equals") && m.desc.equals("(Ljava/lang/Object;)Z")
                || m.name.equals("hashCode") && m.desc.equals("()I")
                || m.name.equals("toString") && m.desc.equals("()Ljava/lang/String;");
    }

    private void checkCloudCode(ClassInfo c, MethodInfo m, List<Finding> out) {
        Set<Integer> envLines = new HashSet<>(); // one CUM107 per line: new Random().nextInt() is one mistake
        for (Event e : facts(m).events) {
            if (e instanceof FieldEvent fe && (fe.opcode() == Opcode.GETSTATIC || fe.opcode() == Opcode.PUTSTATIC)) {
                Optional<ResolvedField> r = resolveField(fe.owner(), fe.name());
                if (r.isPresent() && !r.get().decl().name.equals(c.name) && !r.get().field().isSynthetic()
                        && (!r.get().field().isFinal() || isMutableType(r.get().field().desc()))) {
                    ClassInfo d = r.get().decl();
                    out.add(finding(Rules.CUM104, c, m, fe.line(), "method '" + m.name + "' "
                            + (fe.opcode() == Opcode.GETSTATIC ? "reads" : "writes") + " mutable static field '"
                            + d.simpleName() + "." + fe.name() + "'",
                            List.of(new RelatedLocation(d.name, fe.name(), d.sourceFile, fieldLine(d, fe.name()),
                                    "the static field"))));
                }
            } else if (e instanceof InvokeEvent ie) {
                if (envLines.contains(ie.line())) {
                    continue;
                }
                String what = Catalog.envCall(ie.owner(), ie.name());
                if (what != null) {
                    envLines.add(ie.line());
                    out.add(finding(Rules.CUM107, c, m, ie.line(), "method '" + m.name + "' calls " + callText(ie)
                            + ", which " + what, List.of()));
                    continue;
                }
                Optional<MethodInfo> t = helperTarget(ie);
                if (t.isPresent()) {
                    Optional<EnvPath> p = envPath(t.get(), 0);
                    if (p.isPresent()) {
                        envLines.add(ie.line());
                        out.add(finding(Rules.CUM107, c, m, ie.line(), "method '" + m.name + "' calls "
                                + callText(ie) + ", which " + p.get().what() + " (" + String.join(" -> ",
                                p.get().chain()) + ")", List.of(p.get().site())));
                    }
                }
            }
        }
    }

    // ------------------------------------------------------------------ lines and finding construction

    /** First assignment of the field in a constructor or static initializer of its class, else the class line. */
    int fieldLine(ClassInfo c, String field) {
        for (MethodInfo m : c.methods) {
            if (!m.isInit() || m.code == null) {
                continue;
            }
            for (Event e : facts(m).events) {
                if (e instanceof FieldEvent fe && (fe.opcode() == Opcode.PUTFIELD || fe.opcode() == Opcode.PUTSTATIC)
                        && fe.owner().equals(c.name) && fe.name().equals(field) && fe.line() > 0) {
                    return fe.line();
                }
            }
        }
        return c.classLine();
    }

    private static int methodLine(MethodInfo m) {
        return m.firstLine > 0 ? m.firstLine : m.owner.classLine();
    }

    private static Finding finding(Rule r, ClassInfo c, MethodInfo m, int line, String msg,
                                   List<RelatedLocation> related) {
        return new Finding(r.id(), r.severity(), c.name, m.name, m.desc, c.sourceFile, line, msg, r.fixHint(), related);
    }

    private static Finding fieldFinding(Rule r, ClassInfo c, FieldInfo f, int line, String msg) {
        return new Finding(r.id(), r.severity(), c.name, f.name(), f.desc(), c.sourceFile, line, msg, r.fixHint(),
                List.of());
    }

    private static Finding classFinding(Rule r, ClassInfo c, String msg) {
        return new Finding(r.id(), r.severity(), c.name, null, null, c.sourceFile, c.classLine(), msg, r.fixHint(),
                List.of());
    }

    static final Comparator<MethodClassification> CLASSIFICATION_ORDER = Comparator
            .comparing(MethodClassification::className).thenComparingInt(MethodClassification::line)
            .thenComparing(MethodClassification::methodName).thenComparing(MethodClassification::descriptor);
}
