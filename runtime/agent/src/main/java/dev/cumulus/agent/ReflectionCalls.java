package dev.cumulus.agent;

import java.lang.classfile.ClassBuilder;
import java.lang.classfile.ClassFile;
import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDesc;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.DynamicCallSiteDesc;
import java.lang.constant.MethodHandleDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

/**
 * A program's reflective access to fields and array elements, woven for the single-VM mode (docs/design/SINGLEVM.md,
 * "The woven form"): the getters and setters of {@code java.lang.reflect.Field} and {@code java.lang.reflect.Array}
 * are JDK code, which would read a copy as last filled and whose writes into a copy would never be marked dirty. The
 * program's call stays where it is ({@code Field} checks access against its caller's class), with
 * {@code ReflectionHooks} around it (a static field's class initialised first only if {@code f.canAccess(null)},
 * asked in the program's method, says the JDK's check will pass): before a getter {@code beforeGet} or
 * {@code beforeArrayGet} (a stale copy is filled), after a {@code Field} getter {@code afterGet} (a volatile field's
 * value at its home, boxed and unboxed again); before a setter {@code beginSet}/{@code beginArraySet} (a copy locked,
 * or a release before a volatile write), after it {@code endSet}/{@code endArraySet} (marked dirty, or the volatile
 * write sent home), and {@code abandonSet} if the JDK throws. A method reference to one of them ({@code Field::get},
 * {@code Array::setInt}) is made with a bridge in the program's class holding that woven call as its implementation.
 */
final class ReflectionCalls {
    static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName("dev/cumulus/internal/singlevm/ReflectionHooks");
    private static final ClassDesc CD_FIELD = ClassDesc.of("java.lang.reflect.Field");
    private static final ClassDesc CD_ARRAY = ClassDesc.of("java.lang.reflect.Array");
    private static final ClassDesc CD_LAMBDA_METAFACTORY = ClassDesc.of("java.lang.invoke.LambdaMetafactory");
    /** The name prefix of the bridges {@link Bridges} adds. */
    static final String BRIDGE_PREFIX = "$cumulus$reflect$";
    private static final MethodTypeDesc MTD_BEFORE_GET = MethodTypeDesc.of(CD_void, CD_FIELD, CD_Object, CD_boolean);
    private static final MethodTypeDesc MTD_AFTER_GET = MethodTypeDesc.of(CD_Object, CD_Object, CD_FIELD, CD_Object);
    private static final MethodTypeDesc MTD_BEGIN_SET = MethodTypeDesc.of(CD_Object, CD_FIELD, CD_Object, CD_boolean);
    private static final MethodTypeDesc MTD_PROGRAM_STATIC = MethodTypeDesc.of(CD_boolean, CD_FIELD);
    private static final MethodTypeDesc MTD_CAN_ACCESS = MethodTypeDesc.of(CD_boolean, CD_Object);
    private static final MethodTypeDesc MTD_END_SET = MethodTypeDesc.of(CD_void, CD_Object, CD_FIELD, CD_Object,
        CD_Object);
    private static final MethodTypeDesc MTD_BEFORE_ARRAY_GET = MethodTypeDesc.of(CD_void, CD_Object, CD_int);
    private static final MethodTypeDesc MTD_BEGIN_ARRAY_SET = MethodTypeDesc.of(CD_Object, CD_Object);
    private static final MethodTypeDesc MTD_END_ARRAY_SET = MethodTypeDesc.of(CD_void, CD_Object, CD_int);
    private static final MethodTypeDesc MTD_ABANDON_SET = MethodTypeDesc.of(CD_void, CD_Object);
    /** The element and field accessors of {@code Field} and {@code Array}, by the same names in both. */
    private static final Set<String> ACCESSORS = Set.of("get", "getBoolean", "getByte", "getChar", "getShort", "getInt",
        "getLong", "getFloat", "getDouble", "set", "setBoolean", "setByte", "setChar", "setShort", "setInt", "setLong",
        "setFloat", "setDouble");

    private static final ClassDesc CD_MEMBER_LISTS =
        ClassDesc.ofInternalName("dev/cumulus/internal/singlevm/MemberLists");
    /**
     * {@code Class}'s member lists and field lookups by name, which would show what the weaving added, and the hooks
     * that filter them.
     */
    private static final Map<String, String> MEMBER_LISTS = Map.of(
        "getDeclaredFields()[Ljava/lang/reflect/Field;", "visibleFields",
        "getFields()[Ljava/lang/reflect/Field;", "visibleFields",
        "getDeclaredMethods()[Ljava/lang/reflect/Method;", "visibleMethods",
        "getInterfaces()[Ljava/lang/Class;", "visibleInterfaces",
        "getGenericInterfaces()[Ljava/lang/reflect/Type;", "visibleTypes",
        "getDeclaredField(Ljava/lang/String;)Ljava/lang/reflect/Field;", "visibleField",
        "getField(Ljava/lang/String;)Ljava/lang/reflect/Field;", "visibleField");

    private ReflectionCalls() {
    }

    /** True for a call of one of {@code Class}'s member lists ({@code getDeclaredFields} and the like). */
    static boolean listsMembers(InvokeInstruction ii) {
        return ii.opcode() == Opcode.INVOKEVIRTUAL && ii.owner().asInternalName().equals("java/lang/Class")
            && MEMBER_LISTS.containsKey(ii.name().stringValue() + ii.type().stringValue());
    }

    /**
     * Weaves a call of a member list ({@link #listsMembers}): the call, then {@code MemberLists}' hook that leaves out
     * what the weaving added to program classes (its fields, bridges and marker interface).
     */
    static void weaveMemberList(CodeBuilder b, InvokeInstruction ii) {
        b.with(ii);
        ClassDesc list = ii.typeSymbol().returnType();
        b.invokestatic(CD_MEMBER_LISTS, MEMBER_LISTS.get(ii.name().stringValue() + ii.type().stringValue()),
            MethodTypeDesc.of(list, list));
    }

    /** True for a call of one of the accessors of {@code Field} (an instance method) or {@code Array} (static). */
    static boolean applies(InvokeInstruction ii) {
        String owner = ii.owner().asInternalName();
        if (!ACCESSORS.contains(ii.name().stringValue())) {
            return false;
        }
        return ii.opcode() == Opcode.INVOKEVIRTUAL && owner.equals("java/lang/reflect/Field")
            || ii.opcode() == Opcode.INVOKESTATIC && owner.equals("java/lang/reflect/Array");
    }

    /**
     * Weaves {@code ii}. A setter's catch-all handler may cover the call in a constructor before its {@code super(...)}
     * call too (a flexible constructor body writing another object's field): it only unlocks and rethrows, which the
     * verifier allows while {@code this} is uninitialised.
     */
    static void weave(CodeBuilder b, InvokeInstruction ii) {
        boolean field = ii.opcode() == Opcode.INVOKEVIRTUAL;
        boolean getter = ii.name().stringValue().startsWith("get");
        if (getter) {
            // Field: (field, o); Array: (a, i)
            TypeKind second = field ? TypeKind.REFERENCE : TypeKind.INT;
            int y = b.allocateLocal(second);
            int x = b.allocateLocal(TypeKind.REFERENCE);
            b.storeLocal(second, y);
            b.astore(x);
            b.aload(x);
            b.loadLocal(second, y);
            if (field) {
                accessible(b, x);
            }
            b.invokestatic(CD_HOOKS, field ? "beforeGet" : "beforeArrayGet",
                field ? MTD_BEFORE_GET : MTD_BEFORE_ARRAY_GET);
            b.aload(x);
            b.loadLocal(second, y);
            b.with(ii);
            if (field) {
                ClassDesc value = ii.typeSymbol().returnType();
                Boxing.box(b, value);
                b.aload(x);
                b.loadLocal(second, y);
                b.invokestatic(CD_HOOKS, "afterGet", MTD_AFTER_GET);
                Boxing.unbox(b, value);
            }
            return;
        }
        // Field: (field, o, v); Array: (a, i, v)
        ClassDesc valueType = ii.typeSymbol().parameterType(field ? 1 : 2);
        TypeKind valueKind = TypeKind.from(valueType);
        TypeKind second = field ? TypeKind.REFERENCE : TypeKind.INT;
        int v = b.allocateLocal(valueKind);
        int y = b.allocateLocal(second);
        int x = b.allocateLocal(TypeKind.REFERENCE);
        int token = b.allocateLocal(TypeKind.REFERENCE);
        b.storeLocal(valueKind, v);
        b.storeLocal(second, y);
        b.astore(x);
        if (field) {
            b.aload(x);
            b.aload(y);
            accessible(b, x);
            b.invokestatic(CD_HOOKS, "beginSet", MTD_BEGIN_SET);
        } else {
            b.aload(x);
            b.invokestatic(CD_HOOKS, "beginArraySet", MTD_BEGIN_ARRAY_SET);
        }
        b.astore(token);
        Label start = b.newBoundLabel();
        b.aload(x);
        b.loadLocal(second, y);
        b.loadLocal(valueKind, v);
        b.with(ii);
        Label end = b.newBoundLabel();
        b.aload(token);
        if (field) {
            b.aload(x);
            b.aload(y);
            b.loadLocal(valueKind, v);
            Boxing.box(b, valueType);
            b.invokestatic(CD_HOOKS, "endSet", MTD_END_SET);
        } else {
            b.iload(y);
            b.invokestatic(CD_HOOKS, "endArraySet", MTD_END_ARRAY_SET);
        }
        Label after = b.newLabel();
        b.goto_(after);
        Label handler = b.newBoundLabel();
        b.aload(token);
        b.invokestatic(CD_HOOKS, "abandonSet", MTD_ABANDON_SET);
        b.athrow();
        b.labelBinding(after);
        b.exceptionCatchAll(start, end, handler);
    }

    /**
     * Pushes whether the program's code may access the field in local {@code f}, if it is a static field of a program
     * class ({@code f.canAccess(null)}, asked here, in the program's method: it checks its caller's class as the
     * accessor will), else true. The JDK initialises a static field's class only once the access passed its check; so
     * do the hooks, which initialise it before they fill or lock its statics' copy.
     */
    private static void accessible(CodeBuilder b, int f) {
        Label yes = b.newLabel();
        Label done = b.newLabel();
        b.aload(f);
        b.invokestatic(CD_HOOKS, "programStatic", MTD_PROGRAM_STATIC);
        b.ifeq(yes);
        b.aload(f);
        b.aconst_null();
        b.invokevirtual(CD_FIELD, "canAccess", MTD_CAN_ACCESS);
        b.goto_(done);
        b.labelBinding(yes);
        b.iconst_1();
        b.labelBinding(done);
    }

    /**
     * The accessor a method reference names ({@code Field::get}, {@code field::setInt}, {@code Array::getLong}: an
     * {@code invokedynamic} of {@code LambdaMetafactory} whose implementation is one of the accessors), else null.
     * Its handle would call the JDK's method directly, past the woven call site.
     */
    static DirectMethodHandleDesc reference(InvokeDynamicInstruction indy) {
        DirectMethodHandleDesc bsm = indy.bootstrapMethod();
        if (!bsm.owner().equals(CD_LAMBDA_METAFACTORY) || indy.bootstrapArgs().size() < 2
                || !(indy.bootstrapArgs().get(1) instanceof DirectMethodHandleDesc impl)
                || !ACCESSORS.contains(impl.methodName())) {
            return null;
        }
        boolean field = impl.kind() == DirectMethodHandleDesc.Kind.VIRTUAL && impl.owner().equals(CD_FIELD);
        boolean array = impl.kind() == DirectMethodHandleDesc.Kind.STATIC && impl.owner().equals(CD_ARRAY);
        return field || array ? impl : null;
    }

    /**
     * The method reference {@code indy} ({@link #reference}) made with the bridge {@code bridges} adds to the
     * program's class as its implementation: the woven call of the same accessor. A {@code Field} call there stays
     * caller-sensitive to that class, as the handle's was (a method reference binds the class that made it as the
     * caller).
     */
    static void weaveReference(CodeBuilder b, InvokeDynamicInstruction indy, Bridges bridges) {
        DirectMethodHandleDesc impl = reference(indy);
        ConstantDesc[] args = indy.bootstrapArgs().toArray(ConstantDesc[]::new);
        args[1] = bridges.bridge(impl);
        b.invokedynamic(DynamicCallSiteDesc.of(indy.bootstrapMethod(), indy.name().stringValue(), indy.typeSymbol(),
            args));
    }

    /**
     * The static bridges a class's method references call instead of {@code Field}'s and {@code Array}'s accessors,
     * one per accessor, each the woven call of that accessor ({@link #weave}), added at the class's end.
     */
    static final class Bridges {
        private final ClassDesc owner;
        private final boolean isInterface;
        private final Map<String, DirectMethodHandleDesc> needed = new LinkedHashMap<>();

        Bridges(ClassDesc owner, boolean isInterface) {
            this.owner = owner;
            this.isInterface = isInterface;
        }

        /** The handle of the bridge for accessor {@code impl} (a {@code Field}'s takes the Field first). */
        DirectMethodHandleDesc bridge(DirectMethodHandleDesc impl) {
            String name = BRIDGE_PREFIX + (impl.owner().equals(CD_FIELD) ? "field$" : "array$") + impl.methodName();
            needed.put(name, impl);
            return MethodHandleDesc.ofMethod(isInterface ? DirectMethodHandleDesc.Kind.INTERFACE_STATIC
                : DirectMethodHandleDesc.Kind.STATIC, owner, name, impl.invocationType());
        }

        /** Adds the bridges the class's code asked for. */
        void addTo(ClassBuilder clb) {
            needed.forEach((name, impl) -> {
                MethodTypeDesc type = impl.invocationType();
                clb.withMethodBody(name, type, ClassFile.ACC_PRIVATE | ClassFile.ACC_STATIC | ClassFile.ACC_SYNTHETIC,
                    b -> {
                        for (int i = 0; i < type.parameterCount(); i++) {
                            b.loadLocal(TypeKind.from(type.parameterType(i)), b.parameterSlot(i));
                        }
                        boolean field = impl.owner().equals(CD_FIELD);
                        weave(b, InvokeInstruction.of(field ? Opcode.INVOKEVIRTUAL : Opcode.INVOKESTATIC,
                            b.constantPool().methodRefEntry(impl.owner(), impl.methodName(),
                                field ? type.dropParameterTypes(0, 1) : type)));
                        b.return_(TypeKind.from(type.returnType()));
                    });
            });
        }
    }
}
