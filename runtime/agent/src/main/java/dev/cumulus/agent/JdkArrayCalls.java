package dev.cumulus.agent;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.Set;

/**
 * A program's call into JDK code with array arguments, woven for the single-VM mode (docs/design/SINGLEVM.md, "The
 * woven form"). JDK code is not woven: it would read an array copy as last filled, and its writes into a copy would
 * never be marked dirty. So before such a call every array argument that is a stale copy is filled
 * ({@code SingleVmHooks.readArray}; only the range the call reads where its parameters say, {@link Range}; the
 * {@code deep} methods of {@code java.util.Arrays} fill the arrays inside too).
 * {@code Arrays.setAll} and {@code parallelSetAll} become {@code SingleVmHooks.setAll}, the loop of stores the JDK
 * specifies, woven (its generator may read the elements written before). The other {@code java.util.Arrays} methods
 * that write their first argument ({@link #WRITERS}) write a private clone of a copy
 * ({@code SingleVmHooks.writableClone}), whose written range then goes into the copy with its entries marked dirty
 * ({@code SingleVmHooks.storeWritten}), also when the call throws (a comparator's exception), as woven stores would.
 * Other JDK methods that write into an array argument (e.g. {@code Collection.toArray(T[])}) and arrays passed as
 * {@code Object} are not covered (documented limits).
 */
final class JdkArrayCalls {
    /** The {@code java.util.Arrays} methods that write elements of their first argument on a clone of a copy. */
    static final Set<String> WRITERS = Set.of("sort", "parallelSort", "fill", "parallelPrefix");
    /** The {@code java.util.Arrays} methods replaced by {@code SingleVmHooks.setAll}. */
    static final Set<String> SET_ALL = Set.of("setAll", "parallelSetAll");
    private static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName(SingleVmWeaver.HOOKS);
    private static final MethodTypeDesc MTD_READ = MethodTypeDesc.of(CD_void, CD_Object);
    private static final MethodTypeDesc MTD_READ_RANGE = MethodTypeDesc.of(CD_void, CD_Object, CD_int, CD_int);
    private static final MethodTypeDesc MTD_SET_ALL = MethodTypeDesc.of(CD_void, CD_Object, CD_Object, CD_boolean);
    private static final MethodTypeDesc MTD_CLONE = MethodTypeDesc.of(CD_Object, CD_Object, CD_int, CD_int,
        CD_boolean);
    private static final MethodTypeDesc MTD_STORE = MethodTypeDesc.of(CD_void, CD_Object, CD_Object, CD_int, CD_int,
        CD_boolean);

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

    /**
     * Weaves the call: its arguments into locals, the hooks, then the call with the arguments loaded again.
     * {@code thisReady}: false in a constructor before its {@code super(...)} call, where no exception handler may
     * cover the call (so a writer's range is stored back on a normal return only).
     */
    static void weave(CodeBuilder b, InvokeInstruction ii, boolean thisReady) {
        if (arraysMethod(ii, SET_ALL)) {
            b.loadConstant(ii.name().equalsString("parallelSetAll") ? 1 : 0);
            b.invokestatic(CD_HOOKS, "setAll", MTD_SET_ALL);
            return;
        }
        MethodTypeDesc type = ii.typeSymbol();
        int n = type.parameterCount();
        int[] locals = SingleVmWeaver.storeArguments(b, type);
        boolean writer = arraysMethod(ii, WRITERS);
        boolean deep = ii.owner().asInternalName().equals("java/util/Arrays")
            && ii.name().stringValue().startsWith("deep");
        for (int i = writer ? 1 : 0; i < n; i++) {
            if (!type.parameterType(i).isArray()) {
                continue;
            }
            b.aload(locals[i]);
            Range range = deep ? Range.NONE : Range.of(ii, i);
            if (range == Range.NONE) {
                b.invokestatic(CD_HOOKS, deep ? "readArrayDeep" : "readArray", MTD_READ);
                continue;
            }
            b.iload(locals[i + 1]);
            b.iload(locals[i + 2]);
            if (range == Range.OFFSET_COUNT) {
                b.iload(locals[i + 1]);
                b.iadd(); // offset + count: the end
            }
            b.invokestatic(CD_HOOKS, "readArrayRange", MTD_READ_RANGE);
        }
        if (!writer) {
            reload(b, type, locals, -1);
            b.with(ii);
            return;
        }
        boolean range = n >= 3 && type.parameterType(1).equals(CD_int) && type.parameterType(2).equals(CD_int);
        int target = b.allocateLocal(TypeKind.REFERENCE);
        b.aload(locals[0]);
        loadRange(b, range, locals);
        b.invokestatic(CD_HOOKS, "writableClone", MTD_CLONE);
        b.astore(target);
        Label start = b.newBoundLabel();
        reload(b, type, locals, target);
        b.with(ii);
        Label end = b.newBoundLabel();
        storeWritten(b, range, locals, target);
        if (thisReady) {
            Label after = b.newLabel();
            b.goto_(after);
            Label handler = b.newBoundLabel();
            storeWritten(b, range, locals, target);
            b.athrow();
            b.labelBinding(after);
            b.exceptionCatchAll(start, end, handler);
        }
    }

    /**
     * The part of an array argument a JDK method reads, when the two parameters after it say: {@code from, to} in
     * {@code java.util.Arrays} ({@code copyOfRange}, {@code binarySearch}, {@code equals} of ranges), {@code offset,
     * count} in {@code String} and the string builders ({@code new String(chars, offset, count)}); else the whole
     * array. So a call that reads a few elements of a large array copy fetches their blocks only.
     */
    enum Range {
        NONE, FROM_TO, OFFSET_COUNT;

        static Range of(InvokeInstruction ii, int parameter) {
            MethodTypeDesc type = ii.typeSymbol();
            if (parameter + 2 >= type.parameterCount() || !type.parameterType(parameter + 1).equals(CD_int)
                    || !type.parameterType(parameter + 2).equals(CD_int)) {
                return NONE;
            }
            if (ii.typeSymbol().descriptorString().startsWith("([BIII")) {
                return NONE; // new String(ascii, hibyte, offset, count), deprecated: not (offset, count) after it
            }
            return switch (ii.owner().asInternalName()) {
                case "java/util/Arrays" -> FROM_TO;
                case "java/lang/String", "java/lang/StringBuilder", "java/lang/StringBuffer" -> OFFSET_COUNT;
                default -> NONE;
            };
        }
    }

    /** Loads the call's arguments again, the array written in place of the first when {@code target >= 0}. */
    private static void reload(CodeBuilder b, MethodTypeDesc type, int[] locals, int target) {
        for (int i = 0; i < locals.length; i++) {
            ClassDesc p = type.parameterType(i);
            if (i == 0 && target >= 0) {
                b.aload(target);
                b.checkcast(p);
            } else {
                b.loadLocal(TypeKind.from(p), locals[i]);
            }
        }
    }

    private static void storeWritten(CodeBuilder b, boolean range, int[] locals, int target) {
        b.aload(locals[0]);
        b.aload(target);
        loadRange(b, range, locals);
        b.invokestatic(CD_HOOKS, "storeWritten", MTD_STORE);
    }

    /** A method of {@code java.util.Arrays} named in {@code names} whose first parameter is an array. */
    private static boolean arraysMethod(InvokeInstruction ii, Set<String> names) {
        return ii.owner().asInternalName().equals("java/util/Arrays") && names.contains(ii.name().stringValue())
            && ii.typeSymbol().parameterCount() > 0 && ii.typeSymbol().parameterType(0).isArray();
    }

    /** Pushes the written range: the call's {@code from, to} arguments and false, else {@code 0, 0} and true (all). */
    private static void loadRange(CodeBuilder b, boolean range, int[] locals) {
        if (range) {
            b.iload(locals[1]);
            b.iload(locals[2]);
            b.iconst_0();
        } else {
            b.iconst_0();
            b.iconst_0();
            b.iconst_1();
        }
    }
}
