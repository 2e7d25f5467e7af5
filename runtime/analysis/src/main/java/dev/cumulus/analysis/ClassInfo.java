package dev.cumulus.analysis;

import java.lang.classfile.Attributes;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeModel;
import java.lang.classfile.FieldModel;
import java.lang.classfile.MethodModel;
import java.lang.classfile.attribute.RuntimeInvisibleAnnotationsAttribute;
import java.lang.classfile.attribute.RuntimeVisibleAnnotationsAttribute;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.instruction.LineNumber;
import java.lang.constant.ClassDesc;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** A parsed class file, reduced to what the rules need. Immutable after construction except the facts cache. */
final class ClassInfo {
    final String name;
    final String superName; // null for java/lang/Object and interfaces without super info
    final List<String> interfaces;
    final boolean isInterface;
    final boolean isAbstract;
    final boolean isEnum;
    final boolean isRecord;
    final boolean isSynthetic;
    final String sourceFile;
    final Set<String> annotations; // internal names
    final List<FieldInfo> fields;
    final List<MethodInfo> methods;
    final boolean mentionsCumulus; // the constant pool names a dev/cumulus/ class (cheap filter for Cluster calls)
    boolean fromJdk; // read from the running JDK's image, not from the analysed source

    record FieldInfo(String name, String desc, String signature, boolean isStatic, boolean isFinal,
                     boolean isSynthetic, boolean isPrivate, boolean isPublic, boolean isProtected) {
        String genericType() {
            return signature != null ? signature : desc;
        }
    }

    static final class MethodInfo {
        final ClassInfo owner;
        final String name;
        final String desc;
        final String signature;
        final boolean isStatic;
        final boolean isAbstract; // abstract or native: no code
        final boolean isNative;
        final boolean isSynthetic;
        final boolean isBridge;
        final boolean isPublic;
        final boolean isPrivate;
        final CodeModel code; // null without code
        final int firstLine;
        MethodFacts facts; // computed on demand by ClassIndex.facts

        MethodInfo(ClassInfo owner, MethodModel m) {
            this.owner = owner;
            this.name = m.methodName().stringValue();
            this.desc = m.methodType().stringValue();
            this.signature = m.findAttribute(Attributes.signature()).map(s -> s.signature().stringValue()).orElse(null);
            this.isStatic = m.flags().has(AccessFlag.STATIC);
            this.isNative = m.flags().has(AccessFlag.NATIVE);
            this.isAbstract = m.flags().has(AccessFlag.ABSTRACT) || isNative;
            this.isSynthetic = m.flags().has(AccessFlag.SYNTHETIC);
            this.isBridge = m.flags().has(AccessFlag.BRIDGE);
            this.isPublic = m.flags().has(AccessFlag.PUBLIC);
            this.isPrivate = m.flags().has(AccessFlag.PRIVATE);
            this.code = m.code().orElse(null);
            int line = -1;
            if (code != null) {
                for (var e : code) {
                    if (e instanceof LineNumber ln) {
                        line = ln.line();
                        break;
                    }
                }
            }
            this.firstLine = line;
        }

        boolean isInit() {
            return name.equals("<init>") || name.equals("<clinit>");
        }

        String genericType() {
            return signature != null ? signature : desc;
        }

        /** The line of method-level findings: the first line of the code, else the class line. */
        int reportLine() {
            return firstLine > 0 ? firstLine : owner.classLine();
        }

        /** How reason chains name the method: {@code Stack.push()}. */
        String label() {
            return owner.simpleName() + "." + name + "()";
        }
    }

    private ClassInfo(ClassModel cm) {
        this.name = cm.thisClass().asInternalName();
        this.superName = cm.superclass().map(c -> c.asInternalName()).orElse(null);
        this.interfaces = cm.interfaces().stream().map(c -> c.asInternalName()).toList();
        this.isInterface = cm.flags().has(AccessFlag.INTERFACE);
        this.isAbstract = cm.flags().has(AccessFlag.ABSTRACT);
        this.isEnum = cm.flags().has(AccessFlag.ENUM) || "java/lang/Enum".equals(superName);
        this.isRecord = "java/lang/Record".equals(superName);
        this.isSynthetic = cm.flags().has(AccessFlag.SYNTHETIC);
        this.sourceFile = cm.findAttribute(Attributes.sourceFile()).map(s -> s.sourceFile().stringValue()).orElse(null);
        Set<String> ann = new HashSet<>();
        cm.findAttribute(Attributes.runtimeVisibleAnnotations()).map(RuntimeVisibleAnnotationsAttribute::annotations)
                .ifPresent(l -> l.forEach(a -> ann.add(stripL(a.className().stringValue()))));
        cm.findAttribute(Attributes.runtimeInvisibleAnnotations()).map(RuntimeInvisibleAnnotationsAttribute::annotations)
                .ifPresent(l -> l.forEach(a -> ann.add(stripL(a.className().stringValue()))));
        this.annotations = Set.copyOf(ann);
        List<FieldInfo> fs = new ArrayList<>();
        for (FieldModel f : cm.fields()) {
            fs.add(new FieldInfo(f.fieldName().stringValue(), f.fieldType().stringValue(),
                    f.findAttribute(Attributes.signature()).map(s -> s.signature().stringValue()).orElse(null),
                    f.flags().has(AccessFlag.STATIC), f.flags().has(AccessFlag.FINAL),
                    f.flags().has(AccessFlag.SYNTHETIC), f.flags().has(AccessFlag.PRIVATE),
                    f.flags().has(AccessFlag.PUBLIC), f.flags().has(AccessFlag.PROTECTED)));
        }
        this.fields = List.copyOf(fs);
        List<MethodInfo> ms = new ArrayList<>();
        for (MethodModel m : cm.methods()) {
            ms.add(new MethodInfo(this, m));
        }
        this.methods = List.copyOf(ms);
        boolean mentions = false;
        for (var entry : cm.constantPool()) {
            if (entry instanceof ClassEntry ce
                    && ce.asInternalName().startsWith("dev/cumulus/")) {
                mentions = true;
                break;
            }
        }
        this.mentionsCumulus = mentions;
    }

    /** Parses class bytes; empty if they are not a readable class file. */
    static Optional<ClassInfo> parse(byte[] bytes) {
        try {
            return Optional.of(parseOrThrow(bytes));
        } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
            return Optional.empty();
        }
    }

    /**
     * Parses the class file, including every method's code (which {@code java.lang.classfile} would otherwise read
     * lazily, so a truncated body would only fail mid-analysis).
     *
     * @throws IllegalArgumentException  if the bytes are not a well-formed class file
     * @throws IndexOutOfBoundsException if they are truncated
     */
    static ClassInfo parseOrThrow(byte[] bytes) {
        ClassInfo c = new ClassInfo(ClassFile.of().parse(bytes));
        for (MethodInfo m : c.methods) {
            if (m.code != null) {
                m.code.elementList();
            }
        }
        return c;
    }

    static String stripL(String desc) {
        return desc.startsWith("L") && desc.endsWith(";") ? desc.substring(1, desc.length() - 1) : desc;
    }

    Optional<FieldInfo> field(String fieldName) {
        return fields.stream().filter(f -> f.name.equals(fieldName)).findFirst();
    }

    Optional<MethodInfo> method(String methodName, String methodDesc) {
        return methods.stream().filter(m -> m.name.equals(methodName) && m.desc.equals(methodDesc)).findFirst();
    }

    /** Binary simple name: {@code dev/x/Outer$Inner} gives {@code Outer$Inner}. */
    String simpleName() {
        return simple(name);
    }

    static String simple(String internalName) {
        return internalName.substring(internalName.lastIndexOf('/') + 1);
    }

    /** Source name for messages: {@code java.util.List}'s is {@code List}, a nested class's {@code Outer.Inner}. */
    static String display(String internalName) {
        if (internalName.startsWith("[") || internalName.length() == 1) {
            return ClassDesc.ofDescriptor(internalName).displayName();
        }
        return simple(internalName).replace('$', '.');
    }

    /** The place of a line of this class in reason chains: {@code " at Stack.java:20"}. */
    String at(int line) {
        return " at " + (sourceFile != null ? sourceFile : simpleName()) + (line > 0 ? ":" + line : "");
    }

    /** Line used for class-level findings: first line of the first constructor, else of any method, else -1. */
    int classLine() {
        for (MethodInfo m : methods) {
            if (m.name.equals("<init>") && m.firstLine > 0) {
                return m.firstLine;
            }
        }
        int min = Integer.MAX_VALUE;
        for (MethodInfo m : methods) {
            if (m.firstLine > 0) {
                min = Math.min(min, m.firstLine);
            }
        }
        return min == Integer.MAX_VALUE ? -1 : min;
    }
}
