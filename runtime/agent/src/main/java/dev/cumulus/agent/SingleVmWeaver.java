package dev.cumulus.agent;

import static java.lang.constant.ConstantDescs.CD_Class;
import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_long;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.AccessFlags;
import java.lang.classfile.ClassBuilder;
import java.lang.classfile.ClassElement;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.ClassTransform;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.CodeElement;
import java.lang.classfile.CodeTransform;
import java.lang.classfile.FieldModel;
import java.lang.classfile.Interfaces;
import java.lang.classfile.Label;
import java.lang.classfile.MethodModel;
import java.lang.classfile.MethodTransform;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.instruction.ArrayLoadInstruction;
import java.lang.classfile.instruction.ArrayStoreInstruction;
import java.lang.classfile.instruction.ExceptionCatch;
import java.lang.classfile.instruction.FieldInstruction;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.classfile.instruction.LabelTarget;
import java.lang.classfile.instruction.MonitorInstruction;
import java.lang.classfile.instruction.NewObjectInstruction;
import java.lang.classfile.instruction.ReturnInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.MethodTypeDesc;
import java.lang.reflect.AccessFlag;
import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites a program class for the single-VM mode (docs/design/SINGLEVM.md, "The woven form") with
 * {@code java.lang.classfile}: adds the state, id and statics fields and the {@code SharedObject} marker to a shared
 * class; makes its fields non-final (the heap fills copies); runs its static initializer on node 0 only; and turns,
 * in every method of every program class, field and array accesses, volatile accesses, monitors, {@code synchronized}
 * methods and {@code Object.wait/notify/notifyAll} calls into the in-line checks and {@code SingleVmHooks} calls of the
 * design note. Only at load time (it adds members). Stateless.
 */
final class SingleVmWeaver {
    static final String HOOKS = "dev/cumulus/internal/singlevm/SingleVmHooks";
    static final String STATE = "$cumulus$state";
    static final String ID = "$cumulus$id";
    static final String STATICS = "$cumulus$statics";
    private static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName(HOOKS);
    /** A copy's state before its first fill (dev.cumulus.internal.singlevm.Epochs.NEVER_FILLED). */
    static final int NEVER_FILLED = Integer.MIN_VALUE;
    /** The static of SingleVmHooks a copy's state is compared with: below it, the copy is stale. */
    static final String VALID_FROM = "validFrom";
    private static final ClassDesc CD_SHARED = ClassDesc.of("dev.cumulus.internal.singlevm.SharedObject");
    private static final MethodTypeDesc MTD_OBJECT = MethodTypeDesc.of(CD_void, CD_Object);
    private static final MethodTypeDesc MTD_CLASS = MethodTypeDesc.of(CD_void, CD_Class);
    private static final MethodTypeDesc MTD_FETCH = MethodTypeDesc.of(CD_void, CD_Object, CD_String);
    private static final MethodTypeDesc MTD_FETCH_STATICS = MethodTypeDesc.of(CD_void, CD_Class, CD_String);
    private static final MethodTypeDesc MTD_END_WRITE = MethodTypeDesc.of(CD_void, CD_Object, CD_Class, CD_String);
    private static final MethodTypeDesc MTD_STATIC_WRITE = MethodTypeDesc.of(CD_void, CD_Class, CD_String);
    private static final MethodTypeDesc MTD_GET_VOLATILE = MethodTypeDesc.of(CD_Object, CD_Object, CD_Class,
        CD_String);
    private static final MethodTypeDesc MTD_PUT_VOLATILE = MethodTypeDesc.of(CD_void, CD_Object, CD_Object, CD_Class,
        CD_String);
    private static final MethodTypeDesc MTD_GET_STATIC_VOLATILE = MethodTypeDesc.of(CD_Object, CD_Class, CD_String);
    private static final MethodTypeDesc MTD_PUT_STATIC_VOLATILE = MethodTypeDesc.of(CD_void, CD_Object, CD_Class,
        CD_String);
    private static final MethodTypeDesc MTD_ARRAY_READ = MethodTypeDesc.of(CD_Object, CD_Object, CD_int, CD_Object);
    private static final MethodTypeDesc MTD_NULL_READ = MethodTypeDesc.of(CD_void, CD_Object, CD_Class, CD_String);
    private static final MethodTypeDesc MTD_NULL_ELEMENT = MethodTypeDesc.of(CD_void, CD_Object, CD_int, CD_Object);
    /**
     * Reference types whose values the heap moves by value, never as an object a node keeps to itself: a field of one
     * of them needs no check of a {@code null} it reads ({@code nullRead}).
     */
    private static final java.util.Set<String> BY_VALUE = java.util.Set.of("Ljava/lang/String;",
        "Ljava/lang/Integer;", "Ljava/lang/Long;", "Ljava/lang/Double;", "Ljava/lang/Float;", "Ljava/lang/Short;",
        "Ljava/lang/Byte;", "Ljava/lang/Character;", "Ljava/lang/Boolean;", "Ljava/lang/Class;");
    /**
     * At most this many locals per method remember, each for its array access sites, the last array found to be no
     * copy (sites beyond share them round robin).
     */
    private static final int PLAIN_LOCALS = 16;
    private static final ClassDesc CD_THREAD = ClassDesc.of("java.lang.Thread");
    private static final ClassDesc CD_THREAD_STATE = ClassDesc.of("java.lang.Thread$State");
    private static final ClassDesc CD_RUNNABLE = ClassDesc.of("java.lang.Runnable");
    private static final ClassDesc CD_CALLABLE = ClassDesc.of("java.util.concurrent.Callable");
    private static final MethodTypeDesc MTD_MADE = MethodTypeDesc.of(CD_void, CD_THREAD, CD_RUNNABLE);
    private static final MethodTypeDesc MTD_RUNNABLE = MethodTypeDesc.of(CD_RUNNABLE, CD_Object.arrayType(),
        CD_String, CD_String, CD_String, CD_int);
    private static final MethodTypeDesc MTD_CALLABLE = MethodTypeDesc.of(CD_CALLABLE, CD_Object.arrayType(),
        CD_String, CD_String, CD_String, CD_int);
    private static final MethodTypeDesc MTD_STATICS_HERE = MethodTypeDesc.of(CD_boolean, CD_Class);

    private SingleVmWeaver() {
    }

    /**
     * Pops the arguments of a call of {@code type} off the stack into new locals, which it returns (one per
     * parameter, in order), so that woven code can look at them before the call and load them again.
     */
    static int[] storeArguments(CodeBuilder b, MethodTypeDesc type) {
        int[] locals = new int[type.parameterCount()];
        for (int i = locals.length - 1; i >= 0; i--) {
            TypeKind k = TypeKind.from(type.parameterType(i));
            locals[i] = b.allocateLocal(k);
            b.storeLocal(k, locals[i]);
        }
        return locals;
    }

    /** True if the class was woven for the single-VM mode already (it has the statics field). */
    static boolean alreadyWoven(ClassModel cm) {
        return cm.fields().stream().anyMatch(f -> f.fieldName().equalsString(STATICS));
    }

    /** The woven class file; {@code classes} answers for the classes its code names. */
    static byte[] weave(ClassFile cf, ClassModel cm, ProgramClasses classes) {
        ClassDesc self = cm.thisClass().asSymbol();
        boolean shared = ProgramClasses.isShared(cm);
        boolean topmost = shared && !cm.superclass().map(s -> classes.isShared(s.asInternalName())).orElse(false);
        boolean hasClinit = cm.methods().stream().anyMatch(m -> m.methodName().equalsString("<clinit>"));
        boolean[] marked = {false};
        ReflectionCalls.Bridges bridges = new ReflectionCalls.Bridges(self, cm.flags().has(AccessFlag.INTERFACE));
        ClassTransform ct = (ClassBuilder clb, ClassElement ce) -> {
            if (ce instanceof FieldModel fm && shared) {
                clb.withField(fm.fieldName(), fm.fieldType(), fb -> {
                    int flags = fm.flags().flagsMask();
                    boolean constant = fm.flags().has(AccessFlag.STATIC) && fm.flags().has(AccessFlag.FINAL)
                        && fm.findAttribute(java.lang.classfile.Attributes.constantValue()).isPresent();
                    fb.withFlags(constant ? flags : flags & ~ClassFile.ACC_FINAL);
                    fm.forEach(fe -> {
                        if (!(fe instanceof AccessFlags)) {
                            fb.with(fe);
                        }
                    });
                });
            } else if (ce instanceof MethodModel mm && mm.code().isPresent()) {
                boolean sync = mm.flags().has(AccessFlag.SYNCHRONIZED);
                boolean isStatic = mm.flags().has(AccessFlag.STATIC);
                String name = mm.methodName().stringValue();
                int arraySites = (int) mm.code().get().elementStream()
                    .filter(e -> e instanceof ArrayLoadInstruction || e instanceof ArrayStoreInstruction).count();
                java.util.Set<Label> handlers = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
                mm.code().get().exceptionHandlers().forEach(h -> handlers.add(h.handler()));
                MethodTransform mt = MethodTransform.transformingCode(new CodeWeave(self, classes, name,
                    sync ? (isStatic ? Monitor.CLASS : Monitor.THIS) : Monitor.NONE,
                    shared && name.equals("<clinit>"), arraySites, handlers, bridges));
                if (sync) {
                    mt = mt.andThen((mb, me) -> {
                        if (me instanceof AccessFlags af) {
                            mb.withFlags(af.flagsMask() & ~ClassFile.ACC_SYNCHRONIZED);
                        } else {
                            mb.with(me);
                        }
                    });
                }
                clb.transformMethod(mm, mt);
            } else if (ce instanceof Interfaces in && topmost) {
                List<ClassEntry> all = new ArrayList<>(in.interfaces());
                all.add(clb.constantPool().classEntry(CD_SHARED));
                clb.withInterfaces(all);
                marked[0] = true;
            } else {
                clb.with(ce);
            }
        };
        ct = ct.andThen(ClassTransform.endHandler(bridges::addTo));
        if (shared) {
            ct = ct.andThen(ClassTransform.endHandler(clb -> {
                clb.withField(STATICS, CD_int, ClassFile.ACC_PUBLIC | ClassFile.ACC_STATIC | ClassFile.ACC_SYNTHETIC);
                if (topmost) {
                    int f = ClassFile.ACC_PUBLIC | ClassFile.ACC_TRANSIENT | ClassFile.ACC_SYNTHETIC;
                    clb.withField(STATE, CD_int, f);
                    clb.withField(ID, CD_long, f);
                    if (!marked[0]) {
                        clb.withInterfaceSymbols(CD_SHARED);
                    }
                }
                if (!hasClinit) {
                    clb.withMethodBody("<clinit>", MethodTypeDesc.of(CD_void), ClassFile.ACC_STATIC, b -> {
                        staticsPrologue(b, self, "staticsHome");
                        b.return_();
                    });
                }
            }));
        }
        return cf.transformClass(cm, ct);
    }

    /**
     * {@code if (!SingleVmHooks.HOOK(C.class)) { C.$cumulus$statics = NEVER_FILLED; return; }}: {@code staticsHere} for
     * a class with a static initializer of its own (another node's first use has node 0 run it then), else
     * {@code staticsHome} (nothing to run).
     */
    private static void staticsPrologue(CodeBuilder b, ClassDesc self, String hook) {
        Label body = b.newLabel();
        b.ldc(self);
        b.invokestatic(CD_HOOKS, hook, MTD_STATICS_HERE);
        b.ifne(body);
        b.ldc(NEVER_FILLED);
        b.putstatic(self, STATICS, CD_int);
        b.return_();
        b.labelBinding(body);
    }

    private enum Monitor { NONE, THIS, CLASS }

    /** The code transform of one method. */
    private static final class CodeWeave implements CodeTransform {
        private final ClassDesc self;
        private final ProgramClasses classes;
        private final boolean constructor;
        private final Monitor monitor;
        private final boolean clinit;
        /** In a constructor: {@code new}s whose constructor call is still to come; the super call has none pending. */
        private int pendingNew;
        private boolean superCalled;
        private Label start;
        /**
         * The locals that remember, per array access site, the last array it found to be no copy. An original of this
         * node becomes a copy when a release publishes it to another home, so each is forgotten wherever the thread
         * may have synchronized since: after every call (which may acquire or release inside), {@code monitorenter},
         * volatile access and at every exception handler (docs/design/SINGLEVM.md, "Homed where first published").
         */
        private final int[] plainLocals;
        private final java.util.Set<Label> handlers;
        /**
         * The method's own exception handlers, written after the woven ones: the JVM takes the first entry of the
         * table that covers an instruction, and a woven handler around one call ({@code JdkArrayCalls}) must run before
         * a program's {@code catch} around it (the method's monitor exit, which covers everything, comes last).
         */
        private final List<ExceptionCatch> programCatches = new ArrayList<>();
        private int arraySite;
        /** The class's bridges for method references to reflective accessors ({@link ReflectionCalls#weaveReference}). */
        private final ReflectionCalls.Bridges bridges;

        CodeWeave(ClassDesc self, ProgramClasses classes, String method, Monitor monitor, boolean clinit,
                int arraySites, java.util.Set<Label> handlers, ReflectionCalls.Bridges bridges) {
            this.bridges = bridges;
            this.plainLocals = new int[Math.min(arraySites, PLAIN_LOCALS)];
            this.handlers = handlers;
            this.self = self;
            this.classes = classes;
            this.constructor = method.equals("<init>");
            this.monitor = monitor;
            this.clinit = clinit;
            this.superCalled = !constructor;
        }

        @Override
        public void atStart(CodeBuilder b) {
            for (int i = 0; i < plainLocals.length; i++) {
                plainLocals[i] = b.allocateLocal(TypeKind.REFERENCE);
                b.aconst_null();
                b.astore(plainLocals[i]);
            }
            if (clinit) {
                staticsPrologue(b, self, "staticsHere");
            }
            if (monitor != Monitor.NONE) {
                loadMonitor(b);
                b.invokestatic(CD_HOOKS, "monitorEnter", MTD_OBJECT);
                start = b.newBoundLabel();
            }
        }

        @Override
        public void atEnd(CodeBuilder b) {
            programCatches.forEach(b::with);
            if (monitor != Monitor.NONE) {
                Label end = b.newBoundLabel();
                Label handler = b.newBoundLabel();
                loadMonitor(b);
                b.invokestatic(CD_HOOKS, "monitorExit", MTD_OBJECT);
                b.athrow();
                b.exceptionCatchAll(start, end, handler);
            }
        }

        private void loadMonitor(CodeBuilder b) {
            if (monitor == Monitor.THIS) {
                b.aload(0);
            } else {
                b.ldc(self);
            }
        }

        @Override
        public void accept(CodeBuilder b, CodeElement e) {
            switch (e) {
                case NewObjectInstruction n -> {
                    pendingNew++;
                    b.with(e);
                }
                case InvokeInstruction ii -> {
                    invoke(b, ii);
                    if (!arrayOnly(ii)) {
                        forgetKnown(b);
                    }
                }
                case InvokeDynamicInstruction indy when ReflectionCalls.reference(indy) != null ->
                    ReflectionCalls.weaveReference(b, indy, bridges);
                case InvokeDynamicInstruction indy when ProgramExitCalls.reference(indy) != null ->
                    ProgramExitCalls.weaveReference(b, indy);
                case InvokeDynamicInstruction indy when runnableLambda(indy) != null -> lambda(b, indy);
                case InvokeDynamicInstruction indy when isObjectMethods(indy) -> {
                    readAllArguments(b, indy);
                    b.with(indy);
                }
                case FieldInstruction fi -> {
                    field(b, fi);
                    if (isVolatile(fi)) {
                        forgetKnown(b);
                    }
                }
                case LabelTarget lt when handlers.contains(lt.label()) -> {
                    b.with(e);
                    forgetKnown(b);
                }
                case ArrayLoadInstruction al when al.typeKind() == TypeKind.REFERENCE -> {
                    // as below, and a null from a copy may be a foreign element: nullElement checks it
                    Label plain = b.newLabel();
                    Label skip = b.newLabel();
                    Label done = b.newLabel();
                    int known = nextPlainLocal();
                    arrayReadCheck(b, plain, known); // [a, i]
                    b.dup2();
                    b.with(e); // [a, i, v]
                    b.dup_x2(); // [v, a, i, v]
                    b.ifnonnull(skip); // [v, a, i]
                    b.aload(known);
                    b.invokestatic(CD_HOOKS, "nullElement", MTD_NULL_ELEMENT); // [v]
                    b.goto_(done);
                    b.labelBinding(skip);
                    b.pop2(); // [v]
                    b.goto_(done);
                    b.labelBinding(plain);
                    b.with(e);
                    b.labelBinding(done);
                }
                case ArrayLoadInstruction al -> {
                    Label plain = b.newLabel();
                    arrayReadCheck(b, plain, nextPlainLocal());
                    b.labelBinding(plain);
                    b.with(e);
                }
                case ArrayStoreInstruction as -> arrayStore(b, as, nextPlainLocal());
                case ExceptionCatch ec -> programCatches.add(ec);
                case MonitorInstruction mi -> {
                    b.invokestatic(CD_HOOKS, mi.opcode() == Opcode.MONITORENTER ? "monitorEnter" : "monitorExit",
                        MTD_OBJECT);
                    forgetKnown(b);
                }
                case ReturnInstruction r when monitor != Monitor.NONE -> {
                    loadMonitor(b);
                    b.invokestatic(CD_HOOKS, "monitorExit", MTD_OBJECT);
                    b.with(e);
                }
                default -> b.with(e);
            }
        }

        /**
         * The class whose method {@code ii} calls, for {@link JdkArrayCalls}: its owner, or, for an instance method a
         * program class inherits from a JDK superclass ({@code read} of a program stream, {@code toArray} of a program
         * list), that JDK class, whose code, not woven, is what runs.
         */
        private String jdkOwner(InvokeInstruction ii) {
            String owner = ii.owner().asInternalName();
            boolean instance = ii.opcode() == Opcode.INVOKEVIRTUAL || ii.opcode() == Opcode.INVOKESPECIAL;
            if (!instance || Names.skip(owner) || owner.startsWith("[")
                    || ii.typeSymbol().parameterList().stream().noneMatch(ClassDesc::isArray)) {
                return owner;
            }
            return classes.inheritedFromJdk(owner, ii.name().stringValue() + ii.type().stringValue());
        }

        private void invoke(CodeBuilder b, InvokeInstruction ii) {
            if (ii.opcode() == Opcode.INVOKESPECIAL && ii.name().equalsString("<init>")) {
                boolean made = pendingNew > 0;
                if (made) {
                    pendingNew--;
                } else {
                    superCalled = true;
                }
                String d = ii.type().stringValue();
                if (made && ii.owner().asInternalName().equals("java/lang/Thread")
                        && (d.equals("(Ljava/lang/Runnable;)V") || d.equals("(Ljava/lang/Runnable;Ljava/lang/String;)V"))) {
                    threadWithTask(b, ii, d.length() > "(Ljava/lang/Runnable;)V".length());
                    return;
                }
                if (made && JdkArrayCalls.applies(ii)) { // new String(chars), say
                    JdkArrayCalls.weave(b, ii, ii.owner().asInternalName(), superCalled);
                    return;
                }
                b.with(ii);
                return;
            }
            if (ii.opcode() == Opcode.INVOKESPECIAL && ii.name().equalsString("clone")
                    && ii.type().equalsString("()Ljava/lang/Object;")) {
                // super.clone() reaching Object.clone: it copies every field (a stale copy is filled first) and the
                // added state and id, which the clone, a new object of this node, must not keep
                int original = b.allocateLocal(TypeKind.REFERENCE);
                b.dup();
                b.astore(original);
                b.dup();
                b.invokestatic(CD_HOOKS, "readAll", MTD_OBJECT);
                b.with(ii);
                b.dup();
                b.aload(original);
                b.invokestatic(CD_HOOKS, "cloned", MethodTypeDesc.of(CD_void, CD_Object, CD_Object));
                return;
            }
            if (ii.opcode() == Opcode.INVOKEVIRTUAL && ii.owner().asInternalName().startsWith("[")
                    && ii.name().equalsString("clone")) {
                Label plain = b.newLabel();
                b.getstatic(CD_HOOKS, "remoteArrays", CD_boolean);
                b.ifeq(plain);
                b.dup();
                b.invokestatic(JdkArrayCalls.CD_HOOKS, "readArray", MTD_OBJECT);
                b.labelBinding(plain);
                b.with(ii);
                return;
            }
            if (ii.opcode() == Opcode.INVOKESTATIC && ii.owner().asInternalName().equals("java/lang/System")
                    && ii.name().equalsString("arraycopy")) {
                b.invokestatic(CD_HOOKS, "arraycopy", ii.typeSymbol());
                return;
            }
            if (ProgramExitCalls.applies(ii)) {
                ProgramExitCalls.weave(b, ii);
                return;
            }
            if (ii.opcode() == Opcode.INVOKESTATIC && ii.owner().asInternalName().equals("java/lang/Thread")
                    && ii.name().equalsString("holdsLock")) {
                b.invokestatic(CD_HOOKS, "holdsLock", MethodTypeDesc.of(CD_boolean, CD_Object));
                return;
            }
            if (ii.opcode() == Opcode.INVOKEVIRTUAL && classes.isThread(ii.owner().asInternalName())) {
                String call = ii.name().stringValue() + ii.type().stringValue();
                switch (call) {
                    case "start()V" -> {
                        b.invokestatic(CD_HOOKS, "start", MethodTypeDesc.of(CD_void, CD_THREAD));
                        return;
                    }
                    case "join()V" -> {
                        b.invokestatic(CD_HOOKS, "join", MethodTypeDesc.of(CD_void, CD_THREAD));
                        return;
                    }
                    case "join(J)V" -> {
                        b.invokestatic(CD_HOOKS, "join", MethodTypeDesc.of(CD_void, CD_THREAD, CD_long));
                        return;
                    }
                    case "isAlive()Z" -> {
                        b.invokestatic(CD_HOOKS, "isAlive", MethodTypeDesc.of(CD_boolean, CD_THREAD));
                        return;
                    }
                    case "interrupt()V" -> {
                        b.invokestatic(CD_HOOKS, "interrupt", MethodTypeDesc.of(CD_void, CD_THREAD));
                        return;
                    }
                    case "getState()Ljava/lang/Thread$State;" -> {
                        b.invokestatic(CD_HOOKS, "getState", MethodTypeDesc.of(CD_THREAD_STATE, CD_THREAD));
                        return;
                    }
                    default -> {
                        // other Thread methods run on the local Thread object
                    }
                }
            }
            if (ReflectionCalls.applies(ii)) {
                ReflectionCalls.weave(b, ii);
                return;
            }
            if (ReflectionCalls.listsMembers(ii)) {
                ReflectionCalls.weaveMemberList(b, ii);
                return;
            }
            String jdkOwner = jdkOwner(ii);
            if (jdkOwner != null && JdkArrayCalls.applies(ii, jdkOwner)) {
                JdkArrayCalls.weave(b, ii, jdkOwner, superCalled);
                return;
            }
            String hook = Weaver.hookFor(ii);
            if (hook == null) {
                b.with(ii);
                return;
            }
            String d = ii.type().stringValue();
            MethodTypeDesc type = switch (d) {
                case "(J)V" -> MethodTypeDesc.of(CD_void, CD_Object, CD_long);
                case "(JI)V" -> MethodTypeDesc.of(CD_void, CD_Object, CD_long, CD_int);
                default -> MTD_OBJECT;
            };
            b.invokestatic(CD_HOOKS, hook.equals("notify") ? "notifyOne" : hook, type);
        }

        /**
         * With a copy's state on the stack: jumps to {@code valid} if the field may be read without a fetch — a final
         * field once the copy was ever filled (finals never change), any other while the copy's state is at least
         * {@code SingleVmHooks.validFrom} (filled in the current epoch; a master's 0 always is).
         */
        private static void validCheck(CodeBuilder b, ProgramClasses.FieldInfo info, Label valid) {
            if (info.isFinal()) {
                b.ldc(NEVER_FILLED);
                b.if_icmpne(valid);
            } else {
                b.getstatic(CD_HOOKS, VALID_FROM, CD_int);
                b.if_icmpge(valid);
            }
        }

        private void field(CodeBuilder b, FieldInstruction fi) {
            String owner = fi.owner().asInternalName();
            String name = fi.name().stringValue();
            if (!classes.isShared(owner) || name.startsWith("$cumulus$")) {
                b.with(fi);
                return;
            }
            ProgramClasses.FieldInfo info = classes.field(owner, name).orElse(null);
            if (info == null || info.isConstant()) {
                b.with(fi);
                return;
            }
            ClassDesc ownerDesc = fi.owner().asSymbol();
            ClassDesc declaring = ClassDesc.ofInternalName(info.declaringClass());
            ClassDesc type = fi.typeSymbol();
            TypeKind kind = TypeKind.from(type);
            switch (fi.opcode()) {
                case GETFIELD -> {
                    if (!superCalled) {
                        b.with(fi);
                    } else if (info.isVolatile()) {
                        b.ldc(ownerDesc);
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "getVolatile", MTD_GET_VOLATILE);
                        Boxing.unbox(b, type);
                    } else {
                        Label valid = b.newLabel();
                        b.dup();
                        b.getfield(ownerDesc, STATE, CD_int);
                        validCheck(b, info, valid);
                        b.dup();
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "fetch", MTD_FETCH);
                        b.labelBinding(valid);
                        if (mayBeForeign(type)) {
                            nullChecked(b, fi, ownerDesc, name);
                        } else {
                            b.with(fi);
                        }
                    }
                }
                case PUTFIELD -> {
                    if (!superCalled) {
                        b.with(fi);
                    } else if (info.isVolatile()) {
                        Boxing.box(b, type);
                        b.ldc(ownerDesc);
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "putVolatile", MTD_PUT_VOLATILE);
                    } else {
                        int value = b.allocateLocal(kind);
                        b.storeLocal(kind, value);
                        Label master = b.newLabel();
                        Label done = b.newLabel();
                        b.dup();
                        b.getfield(ownerDesc, STATE, CD_int);
                        b.ifeq(master);
                        b.dup();
                        b.invokestatic(CD_HOOKS, "beginWrite", MTD_OBJECT);
                        b.dup();
                        b.loadLocal(kind, value);
                        b.with(fi);
                        b.ldc(ownerDesc);
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "endWrite", MTD_END_WRITE);
                        b.goto_(done);
                        b.labelBinding(master);
                        b.loadLocal(kind, value);
                        b.with(fi);
                        b.labelBinding(done);
                    }
                }
                case GETSTATIC -> {
                    if (info.isVolatile()) {
                        b.ldc(ownerDesc);
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "getStaticVolatile", MTD_GET_STATIC_VOLATILE);
                        Boxing.unbox(b, type);
                    } else {
                        Label valid = b.newLabel();
                        b.getstatic(declaring, STATICS, CD_int);
                        validCheck(b, info, valid);
                        b.ldc(declaring);
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "fetchStatics", MTD_FETCH_STATICS);
                        b.labelBinding(valid);
                        b.with(fi);
                        if (mayBeForeign(type)) {
                            // [v]: a null from the statics' copy (not node 0's masters) may be a foreign entry
                            Label done = b.newLabel();
                            b.dup();
                            b.ifnonnull(done);
                            b.getstatic(declaring, STATICS, CD_int);
                            b.ifeq(done);
                            b.ldc(ownerDesc);
                            b.ldc(name);
                            b.invokestatic(CD_HOOKS, "nullStaticRead", MTD_STATIC_WRITE);
                            b.labelBinding(done);
                        }
                    }
                }
                case PUTSTATIC -> {
                    if (clinit && declaring.equals(self)) {
                        b.with(fi); // the class's own initializer runs on node 0, the statics' home
                    } else if (info.isVolatile()) {
                        Boxing.box(b, type);
                        b.ldc(ownerDesc);
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "putStaticVolatile", MTD_PUT_STATIC_VOLATILE);
                    } else {
                        int value = b.allocateLocal(kind);
                        b.storeLocal(kind, value);
                        Label master = b.newLabel();
                        Label done = b.newLabel();
                        b.getstatic(declaring, STATICS, CD_int);
                        b.ifeq(master);
                        b.ldc(ownerDesc);
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "beginStaticWrite", MTD_STATIC_WRITE);
                        b.loadLocal(kind, value);
                        b.with(fi);
                        b.ldc(ownerDesc);
                        b.ldc(name);
                        b.invokestatic(CD_HOOKS, "endStaticWrite", MTD_STATIC_WRITE);
                        b.goto_(done);
                        b.labelBinding(master);
                        b.loadLocal(kind, value);
                        b.with(fi);
                        b.labelBinding(done);
                    }
                }
                default -> b.with(fi);
            }
        }

        /**
         * Whether a field of {@code type} may hold, in a copy, an entry its home filled with an object this node cannot
         * use (stored as {@code null}, docs/design/SINGLEVM.md, "JDK objects"): any reference type but arrays, the
         * values the heap moves by value and program classes whose objects are always shared.
         */
        private boolean mayBeForeign(ClassDesc type) {
            if (type.isPrimitive() || type.isArray() || BY_VALUE.contains(type.descriptorString())) {
                return false;
            }
            String d = type.descriptorString();
            return !classes.sharedUpToObject(d.substring(1, d.length() - 1));
        }

        /**
         * {@code getfield} {@code fi} of the object on the stack, then, when the value is {@code null} and the object a
         * copy ({@code $cumulus$state != 0}), {@code SingleVmHooks.nullRead(o, owner, name)}, which stops the run if
         * the entry is foreign: {@code [o] -> [v]}; a value that is not {@code null} costs one test.
         */
        private static void nullChecked(CodeBuilder b, FieldInstruction fi, ClassDesc ownerDesc, String name) {
            Label skip = b.newLabel();
            Label done = b.newLabel();
            b.dup(); // [o, o]
            b.with(fi); // [o, v]
            b.dup_x1(); // [v, o, v]
            b.ifnonnull(skip); // [v, o]
            b.dup();
            b.getfield(ownerDesc, STATE, CD_int);
            b.ifeq(skip); // a master's null is its value
            b.ldc(ownerDesc);
            b.ldc(name);
            b.invokestatic(CD_HOOKS, "nullRead", MTD_NULL_READ); // [v]
            b.goto_(done);
            b.labelBinding(skip);
            b.pop(); // [v]
            b.labelBinding(done);
        }

        /**
         * {@code new Thread(task[, name])}: the constructor call, then {@code SingleVmHooks.made(thread, task)}; the
         * task is kept below the uninitialised references while the constructor runs.
         */
        private static void threadWithTask(CodeBuilder b, InvokeInstruction ii, boolean named) {
            int name = -1;
            if (named) {
                name = b.allocateLocal(TypeKind.REFERENCE);
                b.astore(name);
            }
            b.dup_x2(); // [task, new, new, task]
            if (named) {
                b.aload(name);
            }
            b.with(ii); // [task, thread]
            b.dup_x1(); // [thread, task, thread]
            b.swap(); // [thread, thread, task]
            b.invokestatic(CD_HOOKS, "made", MTD_MADE);
        }

        /**
         * A record's generated {@code equals}, {@code hashCode} or {@code toString}: an {@code ObjectMethods}
         * bootstrap, whose method handles read the record's fields without the woven checks.
         */
        private static boolean isObjectMethods(InvokeDynamicInstruction indy) {
            DirectMethodHandleDesc bsm = indy.bootstrapMethod();
            return bsm.owner().descriptorString().equals("Ljava/lang/runtime/ObjectMethods;")
                && bsm.methodName().equals("bootstrap");
        }

        /**
         * Before an {@code ObjectMethods} call: each of its reference arguments (the record, and for {@code equals}
         * the other object) is made readable ({@code SingleVmHooks.readAll}), as a woven read of its fields would.
         */
        private static void readAllArguments(CodeBuilder b, InvokeDynamicInstruction indy) {
            MethodTypeDesc type = indy.typeSymbol();
            if (type.parameterCount() == 2) { // equals(record, Object): [r, o] -> [r, o, r, o] -> [r, o]
                b.dup2();
                b.invokestatic(CD_HOOKS, "readAll", MTD_OBJECT);
                b.invokestatic(CD_HOOKS, "readAll", MTD_OBJECT);
            } else if (type.parameterCount() == 1) {
                b.dup();
                b.invokestatic(CD_HOOKS, "readAll", MTD_OBJECT);
            }
        }

        /** The implementation method of a {@code Runnable} or {@code Callable} lambda or method reference, else null. */
        private static DirectMethodHandleDesc runnableLambda(InvokeDynamicInstruction indy) {
            DirectMethodHandleDesc bsm = indy.bootstrapMethod();
            if (!bsm.owner().descriptorString().equals("Ljava/lang/invoke/LambdaMetafactory;")
                    || !bsm.methodName().equals("metafactory")
                    || !(indy.typeSymbol().returnType().equals(CD_RUNNABLE)
                        || indy.typeSymbol().returnType().equals(CD_CALLABLE))
                    || indy.bootstrapArgs().size() < 2
                    || !(indy.bootstrapArgs().get(1) instanceof DirectMethodHandleDesc impl)) {
                return null;
            }
            return impl;
        }

        /**
         * A {@code Runnable} (or {@code Callable}) lambda: its captured values into an array, then a SharedRunnable
         * (SharedCallable) naming its method.
         */
        private static void lambda(CodeBuilder b, InvokeDynamicInstruction indy) {
            DirectMethodHandleDesc impl = runnableLambda(indy);
            MethodTypeDesc type = indy.typeSymbol();
            int n = type.parameterCount();
            int[] locals = storeArguments(b, type);
            b.ldc(n);
            b.anewarray(CD_Object);
            for (int i = 0; i < n; i++) {
                b.dup();
                b.ldc(i);
                ClassDesc p = type.parameterType(i);
                b.loadLocal(TypeKind.from(p), locals[i]);
                Boxing.box(b, p);
                b.aastore();
            }
            b.ldc(impl.owner().descriptorString().substring(1, impl.owner().descriptorString().length() - 1));
            b.ldc(impl.methodName());
            b.ldc(impl.lookupDescriptor());
            b.ldc(impl.refKind());
            if (type.returnType().equals(CD_CALLABLE)) {
                b.invokestatic(CD_HOOKS, "callable", MTD_CALLABLE);
            } else {
                b.invokestatic(CD_HOOKS, "runnable", MTD_RUNNABLE);
            }
        }

        /** Sets every array site's {@code known} local to {@code null}: the next access of each checks its array again. */
        private void forgetKnown(CodeBuilder b) {
            for (int local : plainLocals) {
                b.aconst_null();
                b.astore(local);
            }
        }

        /** {@code array.clone()} and {@code System.arraycopy}: calls that never synchronize. */
        private static boolean arrayOnly(InvokeInstruction ii) {
            String owner = ii.owner().asInternalName();
            return owner.startsWith("[") && ii.name().equalsString("clone")
                || owner.equals("java/lang/System") && ii.name().equalsString("arraycopy");
        }

        private boolean isVolatile(FieldInstruction fi) {
            String owner = fi.owner().asInternalName();
            return classes.isShared(owner) && !fi.name().stringValue().startsWith("$cumulus$")
                && classes.field(owner, fi.name().stringValue()).map(ProgramClasses.FieldInfo::isVolatile)
                    .orElse(false);
        }

        /**
         * Before an array load ({@code [a, i]} on the stack, left there): to {@code plain} while the node holds no copy
         * of another node's array, else {@code known = SingleVmHooks.arrayRead(a, i, known)}, which fills a stale copy.
         */
        private static void arrayReadCheck(CodeBuilder b, Label plain, int known) {
            b.getstatic(CD_HOOKS, "remoteArrays", CD_boolean);
            b.ifeq(plain);
            b.dup2();
            b.aload(known);
            b.invokestatic(CD_HOOKS, "arrayRead", MTD_ARRAY_READ);
            b.astore(known);
        }

        /** The local of the next array access site (in the order the sites are woven, as counted before). */
        private int nextPlainLocal() {
            return plainLocals[arraySite++ % plainLocals.length];
        }

        /**
         * {@code if (remoteArrays) known = SingleVmHooks.storeX(a, i, v, known); else a[i] = v;}: the hook stores
         * plainly when {@code a} is {@code known}, the array this site last found to be no copy.
         */
        private static void arrayStore(CodeBuilder b, ArrayStoreInstruction as, int known) {
            String hook;
            MethodTypeDesc type;
            switch (as.typeKind()) {
                case INT -> { hook = "storeInt"; type = store(CD_int.arrayType(), CD_int); }
                case LONG -> { hook = "storeLong"; type = store(CD_long.arrayType(), CD_long); }
                case FLOAT -> { hook = "storeFloat"; type = store(ClassDesc.ofDescriptor("[F"), ClassDesc.ofDescriptor("F")); }
                case DOUBLE -> { hook = "storeDouble"; type = store(ClassDesc.ofDescriptor("[D"), ClassDesc.ofDescriptor("D")); }
                case CHAR -> { hook = "storeChar"; type = store(ClassDesc.ofDescriptor("[C"), ClassDesc.ofDescriptor("C")); }
                case SHORT -> { hook = "storeShort"; type = store(ClassDesc.ofDescriptor("[S"), ClassDesc.ofDescriptor("S")); }
                case BYTE, BOOLEAN -> { hook = "storeByte"; type = store(CD_Object, CD_int); }
                default -> { hook = "storeRef"; type = store(CD_Object.arrayType(), CD_Object); }
            }
            Label plain = b.newLabel();
            Label done = b.newLabel();
            b.getstatic(CD_HOOKS, "remoteArrays", CD_boolean);
            b.ifeq(plain);
            b.aload(known);
            b.invokestatic(CD_HOOKS, hook, type);
            b.astore(known);
            b.goto_(done);
            b.labelBinding(plain);
            b.with(as);
            b.labelBinding(done);
        }

        private static MethodTypeDesc store(ClassDesc array, ClassDesc value) {
            return MethodTypeDesc.of(CD_Object, array, CD_int, value, CD_Object);
        }
    }
}
