package dev.cumulus.agent;

import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.FieldModel;
import java.lang.ref.WeakReference;
import java.lang.reflect.AccessFlag;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the single-VM weaver needs to know of the classes a program's code names, read from their class files through
 * the defining loader's resources (never loading anything), cached: whether a class is one of the program's shared
 * classes, where a field it names is declared and with which flags, and whether a method it names is the program's
 * or inherited from a JDK superclass. The bytes of a class being defined are
 * handed in first (they win).
 */
final class ProgramClasses {
    /** A field as declared: its declaring class and whether it is volatile, final, or a compile-time constant. */
    record FieldInfo(String declaringClass, boolean isVolatile, boolean isFinal, boolean isConstant) {
    }

    private record Header(String superName, boolean shared, Map<String, FieldInfo> fields, Set<String> methods) {
    }

    private static final Header NONE = new Header(null, false, Map.of(), Set.of());

    private final WeakReference<ClassLoader> loader;
    private final Map<String, Header> headers = new ConcurrentHashMap<>();

    ProgramClasses(ClassLoader loader) {
        this.loader = new WeakReference<>(loader);
    }

    /** Reads the class being defined from its bytes (before anything asks for it by resource). */
    void defining(ClassModel cm) {
        headers.put(cm.thisClass().asInternalName(), header(cm));
    }

    /**
     * True for a class whose instances and statics are shared in the single-VM mode: the program's own (not the JDK's,
     * not Cumulus's), a class (not an interface, nor an enum: enum constants are values, made on every node).
     */
    boolean isShared(String internalName) {
        return header(internalName).shared();
    }

    /** True if {@code cm} is a shared class (see {@link #isShared}). */
    static boolean isShared(ClassModel cm) {
        String name = cm.thisClass().asInternalName();
        return !Names.skip(name) && !cm.flags().has(AccessFlag.INTERFACE) && !cm.flags().has(AccessFlag.ENUM)
            && !cm.flags().has(AccessFlag.MODULE) && !name.endsWith("package-info")
            && !cm.superclass().map(s -> s.asInternalName().equals("java/lang/Enum")).orElse(false);
    }

    /**
     * True if {@code internalName} is a shared class whose superclasses up to {@code Object} are all shared: its
     * objects are always shared objects, never one a node must keep to itself (a program class extending a JDK class
     * with state, docs/design/SINGLEVM.md, "Wire form"), so a field of this type never holds a foreign entry.
     */
    boolean sharedUpToObject(String internalName) {
        for (String k = internalName; k != null; ) {
            if (k.equals("java/lang/Object")) {
                return true;
            }
            Header h = header(k);
            if (!h.shared()) {
                return false;
            }
            k = h.superName();
        }
        return false;
    }

    /** True if {@code internalName} is {@code java.lang.Thread} or a program class extending it. */
    boolean isThread(String internalName) {
        for (String k = internalName; k != null; k = header(k).superName()) {
            if (k.equals("java/lang/Thread")) {
                return true;
            }
        }
        return false;
    }

    /** The declaration of field {@code name} as {@code owner} names it (owner or a superclass), if found. */
    Optional<FieldInfo> field(String owner, String name) {
        for (String k = owner; k != null; ) {
            Header h = header(k);
            FieldInfo f = h.fields().get(name);
            if (f != null) {
                return Optional.of(f);
            }
            k = h.superName();
        }
        return Optional.empty();
    }

    /**
     * The JDK class, other than {@code Object}, from which program class {@code owner} inherits method {@code method}
     * (name and descriptor): the first JDK class up its superclasses when neither it nor a program class between
     * declares the method; else {@code null} (the program's own code, or not known).
     */
    String inheritedFromJdk(String owner, String method) {
        for (String k = owner; k != null; ) {
            if (k.startsWith("java/") || k.startsWith("javax/") || k.startsWith("jdk/")) {
                return k.equals("java/lang/Object") ? null : k;
            }
            Header h = header(k);
            if (h == NONE || h.methods().contains(method)) {
                return null;
            }
            k = h.superName();
        }
        return null;
    }

    private Header header(String internalName) {
        if (internalName.startsWith("[") || Names.skip(internalName)) {
            return NONE;
        }
        Header h = headers.get(internalName);
        if (h == null) {
            h = read(internalName);
            headers.put(internalName, h);
        }
        return h;
    }

    private Header read(String internalName) {
        ClassLoader l = loader.get();
        try (InputStream in = l == null ? ClassLoader.getSystemResourceAsStream(internalName + ".class")
                : l.getResourceAsStream(internalName + ".class")) {
            return in == null ? NONE : header(ClassFile.of().parse(in.readAllBytes()));
        } catch (IOException | IllegalArgumentException e) {
            return NONE;
        }
    }

    private static Header header(ClassModel cm) {
        Map<String, FieldInfo> fields = new ConcurrentHashMap<>();
        String self = cm.thisClass().asInternalName();
        for (FieldModel f : cm.fields()) {
            boolean constant = f.flags().has(AccessFlag.STATIC) && f.flags().has(AccessFlag.FINAL)
                && f.findAttribute(java.lang.classfile.Attributes.constantValue()).isPresent();
            fields.put(f.fieldName().stringValue(), new FieldInfo(self, f.flags().has(AccessFlag.VOLATILE),
                f.flags().has(AccessFlag.FINAL), constant));
        }
        Set<String> methods = new HashSet<>();
        cm.methods().forEach(m -> methods.add(m.methodName().stringValue() + m.methodType().stringValue()));
        return new Header(cm.superclass().map(s -> s.asInternalName()).orElse(null), isShared(cm), fields,
            Set.copyOf(methods));
    }
}
