package dev.cumulus.agent;

import static java.lang.constant.ConstantDescs.CD_Boolean;
import static java.lang.constant.ConstantDescs.CD_Byte;
import static java.lang.constant.ConstantDescs.CD_Character;
import static java.lang.constant.ConstantDescs.CD_Double;
import static java.lang.constant.ConstantDescs.CD_Float;
import static java.lang.constant.ConstantDescs.CD_Integer;
import static java.lang.constant.ConstantDescs.CD_Long;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_Short;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

import dev.cumulus.analysis.Access;
import dev.cumulus.analysis.AnalysisResult;
import dev.cumulus.analysis.MethodClassification;
import java.lang.classfile.AccessFlags;
import java.lang.classfile.ClassBuilder;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassHierarchyResolver;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeModel;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.MethodTransform;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.attribute.CodeAttribute;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.classfile.constantpool.ConstantDynamicEntry;
import java.lang.classfile.constantpool.MethodHandleEntry;
import java.lang.classfile.constantpool.MethodTypeEntry;
import java.lang.classfile.instruction.ConstantInstruction;
import java.lang.classfile.instruction.ExceptionCatch;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.NewMultiArrayInstruction;
import java.lang.classfile.instruction.NewObjectInstruction;
import java.lang.classfile.instruction.NewReferenceArrayInstruction;
import java.lang.classfile.instruction.ReturnInstruction;
import java.lang.classfile.instruction.TypeCheckInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.ref.WeakReference;
import java.lang.reflect.AccessFlag;
import java.util.stream.StreamSupport;

/**
 * Rewrites the class file of a cloud class with {@code java.lang.classfile}: exactly what {@code CloudHooks}'
 * javadoc lists (write prologue, read restart handler, wait/notify calls), or, for a refused class, a static
 * initializer that throws. Adds no fields and no methods (the refusal's {@code <clinit>} only at load time), so the
 * result is a legal retransformation. Stateless.
 */
final class Weaver {
    static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName(Names.HOOKS);
    static final ClassDesc CD_RESTART = ClassDesc.of("dev.cumulus.internal.cloud.RestartAsWrite");
    static final ClassDesc CD_CUMULUS_EXCEPTION = ClassDesc.of("dev.cumulus.CumulusException");
    private static final ClassDesc CD_OBJECT_ARRAY = CD_Object.arrayType();
    private static final MethodTypeDesc MTD_BEFORE_WRITE =
            MethodTypeDesc.of(CD_Object, CD_Object, CD_String, CD_OBJECT_ARRAY);
    private static final MethodTypeDesc MTD_RESTART =
            MethodTypeDesc.of(CD_Object, CD_Object, CD_String, CD_OBJECT_ARRAY, CD_RESTART);
    private static final ClassDesc CD_INT_ARRAY = CD_int.arrayType();
    private static final MethodTypeDesc MTD_ENTER_READ = MethodTypeDesc.of(CD_INT_ARRAY);
    private static final MethodTypeDesc MTD_EXIT_READ = MethodTypeDesc.of(CD_void, CD_INT_ARRAY, CD_int);
    /** Longest refusal message put into the constant pool (a CONSTANT_Utf8 holds at most 65535 bytes). */
    private static final int MAX_MESSAGE_CHARS = 16_000;

    private Weaver() {
    }

    /** True if the class already calls CloudHooks (woven before, e.g. by a second agent): it is left alone. */
    static boolean alreadyWoven(ClassModel cm) {
        for (PoolEntry pe : cm.constantPool()) {
            if (pe instanceof ClassEntry ce && ce.asInternalName().equals(Names.HOOKS)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A class-file context that resolves class hierarchies from {@code loader}'s class files. It holds the loader only
     * weakly: the transformers keep it as the value of a weak map keyed by the loader, which a strong reference would
     * pin for good (a departed client's loader on a standing cluster's server must be collectable).
     */
    static ClassFile classFile(ClassLoader loader) {
        ClassHierarchyResolver r = ClassHierarchyResolver.defaultResolver();
        if (loader != null) {
            WeakReference<ClassLoader> weak = new WeakReference<>(loader);
            r = ClassHierarchyResolver.ofResourceParsing((ClassDesc c) -> {
                ClassLoader l = weak.get();
                String descriptor = c.descriptorString();
                return l == null ? null
                    : l.getResourceAsStream(descriptor.substring(1, descriptor.length() - 1) + ".class");
            }).orElse(r);
        }
        return ClassFile.of(ClassFile.ClassHierarchyResolverOption.of(r.cached()));
    }

    /**
     * What is woven into one method; {@code callsOut}: the method may run code of another method (see
     * {@link #callsOut}), so a read counts itself open while it runs.
     */
    record Plan(Access access, String key, boolean waitNotify, boolean callsOut) {
        boolean nothing() {
            return access == null && !waitNotify;
        }

        boolean countsOpenRead() {
            return access == Access.READ && callsOut;
        }
    }

    /**
     * The woven class, or {@code null} if nothing in it needs weaving (no read/write method, no wait/notify call).
     */
    static byte[] weave(ClassFile cf, ClassModel cm, AnalysisResult result) {
        String className = cm.thisClass().asInternalName();
        boolean[] changed = {false};
        ClassTransform ct = (ClassBuilder clb, ClassElement ce) -> {
            if (ce instanceof MethodModel mm && mm.code().isPresent()) {
                Plan p = plan(className, mm, result);
                if (!p.nothing()) {
                    changed[0] = true;
                    clb.transformMethod(mm, MethodTransform.transformingCode(
                            new MethodWeave(p, mm.methodTypeSymbol(), maxLocals(mm.code().get()))));
                    return;
                }
            }
            clb.with(ce);
        };
        byte[] out = cf.transformClass(cm, ct);
        return changed[0] ? out : null;
    }

    static Plan plan(String className, MethodModel mm, AnalysisResult result) {
        String name = mm.methodName().stringValue();
        String desc = mm.methodType().stringValue();
        boolean waitNotify = mm.code().map(c -> c.elementStream()
                .anyMatch(e -> e instanceof InvokeInstruction ii && hookFor(ii) != null)).orElse(false);
        AccessFlags f = mm.flags();
        Access access = null;
        if (!name.startsWith("<") && !f.has(AccessFlag.PRIVATE) && !f.has(AccessFlag.STATIC)
                && !f.has(AccessFlag.ABSTRACT) && !f.has(AccessFlag.BRIDGE) && !f.has(AccessFlag.NATIVE)) {
            access = result.classification(className, name, desc).map(MethodClassification::access).orElse(null);
        }
        return new Plan(access, name + desc, waitNotify, mm.code().map(c -> callsOut(className, c)).orElse(false));
    }

    /**
     * True when running the code of class {@code self} may run program code on the thread (another method's, a class
     * loader's, a class file transformer's): an invoke of any kind, a {@code new} (a constructor, a class initializer),
     * a static field access (a class initializer), a dynamic, method-handle or method-type constant (a bootstrap
     * method, class resolution), or any reference to a class other than {@code self} and arrays of primitives — a
     * field of another class, a cast, an {@code instanceof}, an array of objects, a class constant, a handler's catch
     * type — whose first use loads that class, and loading runs the defining loader's {@code loadClass} and every
     * transformer. What is left (loads, stores, arithmetic, branches, monitors, {@code athrow}, this class's own
     * instance fields) runs nothing of the program's.
     */
    static boolean callsOut(String self, CodeModel code) {
        return code.elementStream().anyMatch(e -> e instanceof InvokeInstruction
                || e instanceof InvokeDynamicInstruction
                || e instanceof NewObjectInstruction
                || e instanceof FieldInstruction fi && (fi.opcode() == Opcode.GETSTATIC
                        || fi.opcode() == Opcode.PUTSTATIC || other(self, fi.owner()))
                || e instanceof ConstantInstruction.LoadConstantInstruction lc
                        && (lc.constantEntry() instanceof ConstantDynamicEntry
                                || lc.constantEntry() instanceof MethodHandleEntry
                                || lc.constantEntry() instanceof MethodTypeEntry
                                || lc.constantEntry() instanceof ClassEntry ce && other(self, ce))
                || e instanceof TypeCheckInstruction tc && other(self, tc.type())
                || e instanceof NewReferenceArrayInstruction na && other(self, na.componentType())
                || e instanceof NewMultiArrayInstruction nm && other(self, nm.arrayType())
                || e instanceof ExceptionCatch ec && ec.catchType().filter(t -> other(self, t)).isPresent());
    }

    /** True when {@code entry} names a class other than {@code self} (an array of such a class too). */
    private static boolean other(String self, ClassEntry entry) {
        String element = elementName(entry.asInternalName());
        return element != null && !element.equals(self);
    }

    private static int maxLocals(CodeModel code) {
        return code instanceof CodeAttribute ca ? ca.maxLocals() : 255;
    }

    /**
     * True when the class's code cannot wait whatever it calls: no {@code Object.wait} call, and no class referred to
     * but itself, the JDK's ({@code java/...}) and Cumulus's cloud API and hooks — so no other cloud class (a node
     * class, a superclass, a lambda's or a nested class) whose code might wait, and which the JVM might load only
     * during one of its writes.
     */
    static boolean waitFree(ClassModel cm) {
        String self = cm.thisClass().asInternalName();
        boolean refersOnlyToKnown = StreamSupport
                .stream(cm.constantPool().spliterator(), false)
                .filter(e -> e instanceof ClassEntry)
                .map(e -> elementName(((ClassEntry) e).asInternalName()))
                .allMatch(n -> n == null || n.equals(self) || n.startsWith("java/")
                        || n.equals("dev/cumulus/Cloud") || n.startsWith("dev/cumulus/Cloud$")
                        || n.equals(Names.HOOKS) || n.equals("dev/cumulus/internal/cloud/RestartAsWrite"));
        boolean waits = cm.methods().stream().flatMap(m -> m.code().stream()).anyMatch(code -> code.elementStream()
                .anyMatch(e -> e instanceof InvokeInstruction ii && "await".equals(hookFor(ii))));
        return refersOnlyToKnown && !waits;
    }

    /** The class an internal name or array descriptor refers to, or {@code null} for an array of primitives. */
    static String elementName(String internalName) {
        if (!internalName.startsWith("[")) {
            return internalName; // a class, whatever its name (a one-letter class in the default package too)
        }
        String n = internalName;
        while (n.startsWith("[")) {
            n = n.substring(1);
        }
        return n.startsWith("L") && n.endsWith(";") ? n.substring(1, n.length() - 1) : null;
    }

    /** The CloudHooks method that replaces an Object.wait/notify/notifyAll call, or {@code null}. */
    static String hookFor(InvokeInstruction ii) {
        Opcode op = ii.opcode();
        if (op != Opcode.INVOKEVIRTUAL && op != Opcode.INVOKEINTERFACE && op != Opcode.INVOKESPECIAL) {
            return null;
        }
        String d = ii.type().stringValue();
        return switch (ii.name().stringValue()) {
            case "wait" -> d.equals("()V") || d.equals("(J)V") || d.equals("(JI)V") ? "await" : null;
            case "notify" -> d.equals("()V") ? "notify" : null;
            case "notifyAll" -> d.equals("()V") ? "notifyAll" : null;
            default -> null;
        };
    }

    private static MethodTypeDesc hookType(String hookDesc) {
        return switch (hookDesc) {
            case "(J)V" -> MethodTypeDesc.of(CD_void, CD_Object, CD_long);
            case "(JI)V" -> MethodTypeDesc.of(CD_void, CD_Object, CD_long, CD_int);
            default -> MethodTypeDesc.of(CD_void, CD_Object);
        };
    }

    /** The code transform for one method. */
    private static final class MethodWeave implements CodeTransform {
        private final Plan plan;
        private final MethodTypeDesc type;
        private int nextLocal;
        private int[] saved;
        private Label start;
        /** The local holding {@code enterRead}'s counter, or -1 when this read does not count itself. */
        private int openReads = -1;
        /** The local holding the count before this read entered (what every way out restores). */
        private int depthBefore = -1;

        MethodWeave(Plan plan, MethodTypeDesc type, int maxLocals) {
            this.plan = plan;
            this.type = type;
            this.nextLocal = maxLocals;
        }

        @Override
        public void atStart(CodeBuilder b) {
            if (plan.access() == Access.WRITE) {
                // Object r = CloudHooks.beforeWrite(this, key, args); if (r != PROCEED) return (T) r;
                b.aload(0);
                b.ldc(plan.key());
                boxedArgs(b, paramSlots(b));
                b.invokestatic(CD_HOOKS, "beforeWrite", MTD_BEFORE_WRITE);
                b.dup();
                b.getstatic(CD_HOOKS, "PROCEED", CD_Object);
                Label proceed = b.newLabel();
                b.if_acmpeq(proceed);
                returnResult(b, type.returnType());
                b.labelBinding(proceed);
                b.pop();
            } else if (plan.access() == Access.READ) {
                if (plan.countsOpenRead()) {
                    // int[] open = CloudHooks.enterRead(); int before = open[0] - 1;
                    // (restored on every way out, see accept and atEnd)
                    b.invokestatic(CD_HOOKS, "enterRead", MTD_ENTER_READ);
                    openReads = nextLocal++;
                    depthBefore = nextLocal++;
                    b.dup();
                    b.astore(openReads);
                    b.iconst_0();
                    b.iaload();
                    b.iconst_1();
                    b.isub();
                    b.istore(depthBefore);
                }
                // save the original parameter values to fresh locals: the body may reassign its parameters
                int[] slots = paramSlots(b);
                saved = new int[slots.length];
                for (int i = 0; i < slots.length; i++) {
                    TypeKind k = TypeKind.from(type.parameterType(i));
                    saved[i] = nextLocal;
                    nextLocal += k.slotSize();
                    b.loadLocal(k, slots[i]);
                    b.storeLocal(k, saved[i]);
                }
                start = b.newBoundLabel();
            }
        }

        @Override
        public void accept(CodeBuilder b, CodeElement e) {
            if (e instanceof InvokeInstruction ii) {
                String hook = hookFor(ii);
                if (hook != null) {
                    b.invokestatic(CD_HOOKS, hook, hookType(ii.type().stringValue()));
                    return;
                }
            }
            if (e instanceof ReturnInstruction && openReads >= 0) {
                exitRead(b);
            }
            b.with(e);
        }

        private void exitRead(CodeBuilder b) {
            b.aload(openReads);
            b.iload(depthBefore);
            b.invokestatic(CD_HOOKS, "exitRead", MTD_EXIT_READ);
        }

        @Override
        public void atEnd(CodeBuilder b) {
            if (plan.access() != Access.READ) {
                return;
            }
            // catch (RestartAsWrite signal) { return (T) CloudHooks.restartAsWrite(this, key, savedArgs, signal); }
            Label end = b.newBoundLabel();
            Label handler = b.newBoundLabel();
            int signal = nextLocal++;
            b.astore(signal);
            if (openReads >= 0) {
                exitRead(b); // before the restart: restartAsWrite looks for reads around this one
            }
            b.aload(0);
            b.ldc(plan.key());
            boxedArgs(b, saved);
            b.aload(signal);
            b.invokestatic(CD_HOOKS, "restartAsWrite", MTD_RESTART);
            returnResult(b, type.returnType());
            b.exceptionCatch(start, end, handler, CD_RESTART);
            if (openReads >= 0) {
                // catch (Throwable t) { CloudHooks.exitRead(open, before); throw t; } — after the restart handler
                Label any = b.newBoundLabel();
                exitRead(b); // the throwable stays below exitRead's arguments
                b.athrow();
                b.exceptionCatchAll(start, end, any);
            }
        }

        private int[] paramSlots(CodeBuilder b) {
            int[] slots = new int[type.parameterCount()];
            for (int i = 0; i < slots.length; i++) {
                slots[i] = b.parameterSlot(i);
            }
            return slots;
        }

        /** Pushes {@code new Object[] {boxed locals...}}. */
        private void boxedArgs(CodeBuilder b, int[] slots) {
            b.loadConstant(slots.length);
            b.anewarray(CD_Object);
            for (int i = 0; i < slots.length; i++) {
                ClassDesc t = type.parameterType(i);
                TypeKind k = TypeKind.from(t);
                b.dup();
                b.loadConstant(i);
                b.loadLocal(k, slots[i]);
                box(b, k);
                b.aastore();
            }
        }
    }

    private static void box(CodeBuilder b, TypeKind k) {
        ClassDesc boxType = boxOf(k);
        if (boxType != null) {
            b.invokestatic(boxType, "valueOf", MethodTypeDesc.of(boxType, primitiveOf(k)));
        }
    }

    /** Consumes the Object on the stack and returns it as the method's return type (unboxed, cast). */
    static void returnResult(CodeBuilder b, ClassDesc returnType) {
        TypeKind k = TypeKind.from(returnType);
        if (k == TypeKind.VOID) {
            b.pop();
            b.return_();
            return;
        }
        ClassDesc boxType = boxOf(k);
        if (boxType != null) {
            b.checkcast(boxType);
            b.invokevirtual(boxType, primitiveOf(k).displayName() + "Value", MethodTypeDesc.of(primitiveOf(k)));
        } else if (!returnType.equals(CD_Object)) {
            b.checkcast(returnType);
        }
        b.return_(k);
    }

    private static ClassDesc boxOf(TypeKind k) {
        return switch (k) {
            case BOOLEAN -> CD_Boolean;
            case BYTE -> CD_Byte;
            case CHAR -> CD_Character;
            case SHORT -> CD_Short;
            case INT -> CD_Integer;
            case LONG -> CD_Long;
            case FLOAT -> CD_Float;
            case DOUBLE -> CD_Double;
            default -> null;
        };
    }

    private static ClassDesc primitiveOf(TypeKind k) {
        return k.upperBound();
    }

    /**
     * The refused class: every element kept except its static initializer, which is replaced by one that throws
     * {@code new CumulusException(message)} (the JVM wraps it in an {@link ExceptionInInitializerError}). Load time
     * only: a retransformation may not add a method.
     */
    static byte[] refuse(ClassFile cf, ClassModel cm, String message) {
        String msg = message.length() > MAX_MESSAGE_CHARS
                ? message.substring(0, MAX_MESSAGE_CHARS) + "\n... (truncated; run 'cumulus check' for all)"
                : message;
        return cf.transformClass(cm, new ClassTransform() {
            @Override
            public void accept(ClassBuilder clb, ClassElement ce) {
                if (!(ce instanceof MethodModel mm && mm.methodName().equalsString("<clinit>"))) {
                    clb.with(ce);
                }
            }

            @Override
            public void atEnd(ClassBuilder clb) {
                clb.withMethodBody("<clinit>", MethodTypeDesc.of(CD_void), ClassFile.ACC_STATIC, cb -> {
                    cb.new_(CD_CUMULUS_EXCEPTION);
                    cb.dup();
                    cb.ldc((ConstantDesc) msg);
                    cb.invokespecial(CD_CUMULUS_EXCEPTION, "<init>", MethodTypeDesc.of(CD_void, CD_String));
                    cb.athrow();
                });
            }
        });
    }
}
