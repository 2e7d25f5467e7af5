package dev.cumulus.analysis;

import dev.cumulus.analysis.ClassInfo.FieldInfo;
import dev.cumulus.analysis.ClassInfo.MethodInfo;
import dev.cumulus.analysis.MethodFacts.Event;
import dev.cumulus.analysis.MethodFacts.FieldEvent;
import dev.cumulus.analysis.MethodFacts.InvokeEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.Opcode;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The class facts every rule and the classifier share: class lookup (the source first, JDK classes from the running
 * JDK's image), the type hierarchy, which classes are cloud classes, field and method resolution, each method's
 * {@link MethodFacts}, and the line conventions of findings. Caches everything for the lifetime of the analyzer; not
 * thread-safe ({@link CloudAnalyzer} serializes calls).
 */
final class ClassIndex {
    private final ClassSource source;
    private final Map<String, Optional<ClassInfo>> classes = new HashMap<>();
    private final Map<String, Set<String>> supertypes = new HashMap<>();
    private final Map<String, UnreadableInput> unreadable = new HashMap<>();
    private List<String> allNames;

    ClassIndex(ClassSource source) {
        this.source = source;
    }

    /**
     * The class with this internal name: a JDK class from the running JDK's image (whatever the source holds, as
     * class loading delegates to the JDK first), else from the source. Every client therefore sees the same JDK
     * classes, marked {@link ClassInfo#fromJdk}: the agent's source (a class loader) can read JDK class files too,
     * and the rules must not analyse JDK code for one client and trust it for another. A class file of the source
     * that cannot be read or parsed is recorded ({@link #unreadable}) and treated as unknown.
     */
    Optional<ClassInfo> info(String name) {
        if (name == null) {
            return Optional.empty();
        }
        Optional<ClassInfo> have = classes.get(name);
        if (have != null) {
            return have;
        }
        Optional<ClassInfo> ci = jdkBytes(name).flatMap(ClassInfo::parse);
        ci.ifPresent(c -> c.fromJdk = true);
        if (ci.isEmpty()) {
            ci = fromSource(name);
        }
        classes.put(name, ci);
        return ci;
    }

    private Optional<ClassInfo> fromSource(String name) {
        try {
            Optional<byte[]> bytes = source.classBytes(name);
            return bytes.isEmpty() ? Optional.empty() : Optional.of(ClassInfo.parseOrThrow(bytes.get()));
        } catch (UncheckedIOException e) {
            unreadable.put(name, new UnreadableInput(source.location(name), String.valueOf(e.getCause() != null
                    ? e.getCause().getMessage() : e.getMessage())));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            unreadable.put(name, new UnreadableInput(source.location(name), "not a valid class file ("
                    + (e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName()) + ")"));
        }
        return Optional.empty();
    }

    /** The class file of this class, if the source has it but it could not be read (after {@link #info}). */
    Optional<UnreadableInput> unreadable(String name) {
        return Optional.ofNullable(unreadable.get(name));
    }

    /** Reads (never loads) a JDK class file from the running JDK's image; empty for classes not in the JDK. */
    private static Optional<byte[]> jdkBytes(String name) {
        try (InputStream in = ClassLoader.getPlatformClassLoader().getResourceAsStream(name + ".class")) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** Every class of the source: the analysed set, over which global facts are computed. */
    List<String> allNames() {
        if (allNames == null) {
            allNames = source.allClassNames().toList();
        }
        return allNames;
    }

    /** The class itself, its superclasses and all its interfaces. */
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

    boolean isEnum(String n) {
        return info(n).map(c -> c.isEnum).orElse(false);
    }

    boolean isRecord(String n) {
        return info(n).map(c -> c.isRecord).orElse(false);
    }

    record ResolvedField(ClassInfo decl, FieldInfo field) {
    }

    /** The field {@code owner.name} refers to: declared in the owner or inherited. */
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

    /** The events of a method's body, computed once. */
    MethodFacts facts(MethodInfo m) {
        if (m.facts == null) {
            m.facts = m.code == null ? MethodFacts.EMPTY
                    : MethodFacts.compute(m.owner.name, m.isStatic, m.desc, m.code,
                    of -> resolveField(of[0], of[1]).map(r -> isCloud(r.decl().name)).orElse(false),
                    Catalog::isCollectionLike);
        }
        return m.facts;
    }

    /** A call of {@code Cluster.export}, {@code lookup} or {@code remoteNew} (not a method reference to one). */
    boolean isClusterCall(InvokeEvent ie) {
        return (ie.name().equals("export") || ie.name().equals("lookup") || ie.name().equals("remoteNew"))
                && !ie.viaLambda() && isSubtype(ie.owner(), Catalog.CLUSTER);
    }

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
}
