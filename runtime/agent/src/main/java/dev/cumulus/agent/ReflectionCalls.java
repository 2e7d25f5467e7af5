package dev.cumulus.agent;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.Set;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_void;

/**
 * A program's reflective access to fields and array elements, woven for the single-VM mode (docs/design/SINGLEVM.md,
 * "The woven form"): the getters and setters of {@code java.lang.reflect.Field} and {@code java.lang.reflect.Array}
 * are JDK code, which would read a copy as last filled and whose writes into a copy would never be marked dirty.
 * A {@code Field} call stays in the program's method, since the JDK checks access against its caller's class: before
 * it {@code ReflectionHooks.beforeGet} (a stale copy is filled) or {@code beginSet} (a copy locked, or a release
 * before a volatile write), after it {@code afterGet} (a volatile field's value at its home) or {@code endSet} (the
 * field marked dirty, or the volatile write sent home), and {@code abandonSet} if the JDK throws. An {@code Array}
 * call, which checks no access, becomes a call of {@code ReflectionHooks.arrayGetInt} and the like with the same
 * arguments.
 */
final class ReflectionCalls {
    static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName("dev/cumulus/internal/singlevm/ReflectionHooks");
    private static final ClassDesc CD_FIELD = ClassDesc.of("java.lang.reflect.Field");
    private static final MethodTypeDesc MTD_BEFORE_GET = MethodTypeDesc.of(CD_void, CD_FIELD, CD_Object);
    private static final MethodTypeDesc MTD_BEGIN_SET = MethodTypeDesc.of(CD_Object, CD_FIELD, CD_Object);
    private static final MethodTypeDesc MTD_ABANDON_SET = MethodTypeDesc.of(CD_void, CD_Object);
    /** The element and field accessors of {@code Field} and {@code Array}, by the same names in both. */
    private static final Set<String> ACCESSORS = Set.of("get", "getBoolean", "getByte", "getChar", "getShort", "getInt",
        "getLong", "getFloat", "getDouble", "set", "setBoolean", "setByte", "setChar", "setShort", "setInt", "setLong",
        "setFloat", "setDouble");

    private ReflectionCalls() {
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
     * Weaves {@code ii}. {@code handlerAllowed} is false in a constructor before its {@code super(...)} call, where no
     * exception handler may cover code: a setter there keeps no copy lock across the call (it is left as it is).
     */
    static void weave(CodeBuilder b, InvokeInstruction ii, boolean handlerAllowed) {
        String name = ii.name().stringValue();
        MethodTypeDesc type = ii.typeSymbol();
        if (ii.opcode() == Opcode.INVOKESTATIC) {
            b.invokestatic(CD_HOOKS, "array" + Character.toUpperCase(name.charAt(0)) + name.substring(1), type);
        } else if (name.startsWith("get")) {
            int o = b.allocateLocal(TypeKind.REFERENCE);
            int f = b.allocateLocal(TypeKind.REFERENCE);
            b.astore(o);
            b.astore(f);
            b.aload(f);
            b.aload(o);
            b.invokestatic(CD_HOOKS, "beforeGet", MTD_BEFORE_GET);
            b.aload(f);
            b.aload(o);
            b.with(ii);
            b.aload(f);
            b.aload(o);
            ClassDesc value = type.returnType();
            b.invokestatic(CD_HOOKS, "afterGet", MethodTypeDesc.of(value, value, CD_FIELD, CD_Object));
        } else if (handlerAllowed) {
            ClassDesc valueType = type.parameterType(1);
            TypeKind kind = TypeKind.from(valueType);
            int v = b.allocateLocal(kind);
            int o = b.allocateLocal(TypeKind.REFERENCE);
            int f = b.allocateLocal(TypeKind.REFERENCE);
            int token = b.allocateLocal(TypeKind.REFERENCE);
            b.storeLocal(kind, v);
            b.astore(o);
            b.astore(f);
            b.aload(f);
            b.aload(o);
            b.invokestatic(CD_HOOKS, "beginSet", MTD_BEGIN_SET);
            b.astore(token);
            Label start = b.newBoundLabel();
            b.aload(f);
            b.aload(o);
            b.loadLocal(kind, v);
            b.with(ii);
            Label end = b.newBoundLabel();
            b.aload(token);
            b.aload(f);
            b.aload(o);
            b.loadLocal(kind, v);
            b.invokestatic(CD_HOOKS, "endSet", MethodTypeDesc.of(CD_void, CD_Object, CD_FIELD, CD_Object, valueType));
            Label after = b.newLabel();
            b.goto_(after);
            Label handler = b.newBoundLabel();
            b.aload(token);
            b.invokestatic(CD_HOOKS, "abandonSet", MTD_ABANDON_SET);
            b.athrow();
            b.labelBinding(after);
            b.exceptionCatchAll(start, end, handler);
        } else {
            b.with(ii);
        }
    }
}
