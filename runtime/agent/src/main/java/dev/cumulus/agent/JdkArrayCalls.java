package dev.cumulus.agent;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.Set;

/**
 * A program's call into JDK code with array arguments, woven for the single-VM mode (docs/design/SINGLEVM.md, "The
 * woven form"). JDK code is not woven: it would read an array copy as last filled, and its writes into a copy would
 * never be marked dirty. So before such a call every array argument that is a stale copy is filled
 * ({@code SingleVmHooks.readArray}; the {@code deep} methods of {@code java.util.Arrays} fill the arrays inside too),
 * and the {@code java.util.Arrays} methods that write their first argument ({@link #WRITERS}) write a private clone
 * of a copy instead ({@code SingleVmHooks.writableClone}), whose written range is then stored into the copy with its
 * entries marked dirty ({@code SingleVmHooks.storeWritten}), as woven stores would. Other JDK methods that write into
 * an array argument (e.g. {@code Collection.toArray(T[])}) are not covered (a documented limit).
 */
final class JdkArrayCalls {
    /** The {@code java.util.Arrays} methods that write elements of their first argument. */
    static final Set<String> WRITERS = Set.of("sort", "parallelSort", "fill", "setAll", "parallelSetAll",
        "parallelPrefix");
    private static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName(SingleVmWeaver.HOOKS);
    private static final MethodTypeDesc MTD_READ = MethodTypeDesc.of(CD_void, CD_Object);
    private static final MethodTypeDesc MTD_CLONE = MethodTypeDesc.of(CD_Object, CD_Object, CD_int, CD_int);
    private static final MethodTypeDesc MTD_STORE = MethodTypeDesc.of(CD_void, CD_Object, CD_Object, CD_int, CD_int);

    private JdkArrayCalls() {
    }

    /**
     * True for a call into the JDK with at least one array parameter (not {@code System.arraycopy} and array
     * {@code clone}, woven on their own, nor the signature-polymorphic method and var handle calls).
     */
    static boolean applies(InvokeInstruction ii) {
        String owner = ii.owner().asInternalName();
        if (!(owner.startsWith("java/") || owner.startsWith("javax/") || owner.startsWith("jdk/"))
                || owner.equals("java/lang/invoke/MethodHandle") || owner.equals("java/lang/invoke/VarHandle")) {
            return false;
        }
        return ii.typeSymbol().parameterList().stream().anyMatch(ClassDesc::isArray);
    }

    /** Weaves the call: its arguments into locals, the hooks, then the call with the arguments loaded again. */
    static void weave(CodeBuilder b, InvokeInstruction ii) {
        MethodTypeDesc type = ii.typeSymbol();
        int n = type.parameterCount();
        int[] locals = new int[n];
        for (int i = n - 1; i >= 0; i--) {
            TypeKind k = TypeKind.from(type.parameterType(i));
            locals[i] = b.allocateLocal(k);
            b.storeLocal(k, locals[i]);
        }
        boolean writer = isWriter(ii);
        boolean range = writer && n >= 3 && type.parameterType(1).equals(CD_int)
            && type.parameterType(2).equals(CD_int);
        boolean deep = ii.owner().asInternalName().equals("java/util/Arrays")
            && ii.name().stringValue().startsWith("deep");
        for (int i = writer ? 1 : 0; i < n; i++) {
            if (type.parameterType(i).isArray()) {
                b.aload(locals[i]);
                b.invokestatic(CD_HOOKS, deep ? "readArrayDeep" : "readArray", MTD_READ);
            }
        }
        int target = -1;
        if (writer) {
            target = b.allocateLocal(TypeKind.REFERENCE);
            b.aload(locals[0]);
            loadRange(b, range, locals);
            b.invokestatic(CD_HOOKS, "writableClone", MTD_CLONE);
            b.astore(target);
        }
        for (int i = 0; i < n; i++) {
            ClassDesc p = type.parameterType(i);
            if (i == 0 && writer) {
                b.aload(target);
                b.checkcast(p);
            } else {
                b.loadLocal(TypeKind.from(p), locals[i]);
            }
        }
        b.with(ii);
        if (writer) {
            b.aload(locals[0]);
            b.aload(target);
            loadRange(b, range, locals);
            b.invokestatic(CD_HOOKS, "storeWritten", MTD_STORE);
        }
    }

    /** A {@link #WRITERS} method of {@code java.util.Arrays} whose first parameter is an array. */
    private static boolean isWriter(InvokeInstruction ii) {
        return ii.owner().asInternalName().equals("java/util/Arrays") && WRITERS.contains(ii.name().stringValue())
            && ii.typeSymbol().parameterCount() > 0 && ii.typeSymbol().parameterType(0).isArray();
    }

    /** Pushes the written range: the call's {@code from, to} arguments, else {@code 0, -1} (the whole array). */
    private static void loadRange(CodeBuilder b, boolean range, int[] locals) {
        if (range) {
            b.iload(locals[1]);
            b.iload(locals[2]);
        } else {
            b.iconst_0();
            b.iconst_m1();
        }
    }
}
