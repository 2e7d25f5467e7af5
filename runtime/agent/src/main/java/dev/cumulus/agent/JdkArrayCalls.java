package dev.cumulus.agent;

import static java.lang.constant.ConstantDescs.CD_Object;
import static java.lang.constant.ConstantDescs.CD_String;
import static java.lang.constant.ConstantDescs.CD_boolean;
import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.classfile.Opcode;
import java.lang.classfile.TypeKind;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;
import java.util.Set;

/**
 * A program's call into JDK code with array arguments, woven for the single-VM mode (docs/design/SINGLEVM.md, "The
 * woven form"). JDK code is not woven: it would read an array copy as last filled, and its writes into a copy would
 * never be marked dirty. So before such a call every array argument that is a stale copy is filled
 * ({@code JdkArrayHooks.readArray}; only the range the call reads where its parameters say, {@link Range}; the
 * {@code deep} methods of {@code java.util.Arrays} fill the arrays inside too).
 * {@code Arrays.setAll} and {@code parallelSetAll} become {@code JdkArrayHooks.setAll}, the loop of stores the JDK
 * specifies, woven (its generator may read the elements written before). A JDK method that writes into an array
 * argument ({@link Writer}: {@code Arrays.sort} and the other {@code java.util.Arrays} writers, {@code read} of the
 * JDK's streams and readers, a buffer's {@code get}, {@code getChars}, {@code nextBytes}, {@code Collection.toArray},
 * {@code MessageDigest.digest}, {@code Inflater.inflate}, {@code Deflater.deflate}, {@code Character.toChars}, the
 * output array of {@code Base64}'s {@code decode}/{@code encode} and {@code Cipher}'s {@code update}/{@code doFinal})
 * writes a private clone of a copy, whose changed elements then go into the copy marked
 * dirty, also when the call throws, as woven stores would ({@code JdkArrayHooks.snapshot}, {@code target},
 * {@code storeWritten}; {@code result} where the JDK returns the array it wrote; a receiver whose class
 * overrides the method with the program's own code gets the array itself). Other JDK methods that write into an
 * array, JDK objects that keep an array to use later ({@code Arrays.asList}, {@code ByteBuffer.wrap}) and arrays
 * passed as {@code Object} are not covered (documented limits).
 */
final class JdkArrayCalls {
    /** The {@code java.util.Arrays} methods that write elements of their first argument on a clone of a copy. */
    static final Set<String> WRITERS = Set.of("sort", "parallelSort", "fill", "parallelPrefix");
    /** The {@code java.util.Arrays} methods replaced by {@code JdkArrayHooks.setAll}. */
    static final Set<String> SET_ALL = Set.of("setAll", "parallelSetAll");
    static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName("dev/cumulus/internal/singlevm/JdkArrayHooks");
    private static final MethodTypeDesc MTD_READ = MethodTypeDesc.of(CD_void, CD_Object);
    private static final MethodTypeDesc MTD_READ_RANGE = MethodTypeDesc.of(CD_void, CD_Object, CD_int, CD_int);
    private static final MethodTypeDesc MTD_SET_ALL = MethodTypeDesc.of(CD_void, CD_Object, CD_Object, CD_boolean);
    private static final MethodTypeDesc MTD_SNAPSHOT = MethodTypeDesc.of(CD_Object, CD_Object, CD_String, CD_Object,
        CD_int, CD_int, CD_boolean);
    private static final MethodTypeDesc MTD_TARGET = MethodTypeDesc.of(CD_Object, CD_Object, CD_Object);
    private static final MethodTypeDesc MTD_STORE = MethodTypeDesc.of(CD_void, CD_Object, CD_Object, CD_Object, CD_int,
        CD_int, CD_boolean);
    private static final MethodTypeDesc MTD_RESULT = MethodTypeDesc.of(CD_Object, CD_Object, CD_Object, CD_Object);

    private JdkArrayCalls() {
    }

    /**
     * True for a call into the JDK with at least one array parameter (not {@code System.arraycopy} and array
     * {@code clone}, woven on their own, nor the signature-polymorphic method and var handle calls).
     */
    static boolean applies(InvokeInstruction ii) {
        return applies(ii, ii.owner().asInternalName());
    }

    /**
     * True for a call with at least one array parameter of a method {@code owner} declares, a JDK class: the call's
     * own owner, or the JDK superclass of a program class that inherits the method from it ({@code read} of a program
     * stream extending {@code InputStream}, say).
     */
    static boolean applies(InvokeInstruction ii, String owner) {
        if (!(owner.startsWith("java/") || owner.startsWith("javax/") || owner.startsWith("jdk/"))
                || owner.equals("java/lang/invoke/MethodHandle") || owner.equals("java/lang/invoke/VarHandle")) {
            return false;
        }
        return ii.typeSymbol().parameterList().stream().anyMatch(ClassDesc::isArray) || deepEquals(ii, owner);
    }

    /** {@code Objects.deepEquals(Object, Object)}: it reads arrays given as {@code Object}, and the arrays inside. */
    private static boolean deepEquals(InvokeInstruction ii, String owner) {
        return owner.equals("java/util/Objects") && ii.name().equalsString("deepEquals");
    }

    /**
     * Weaves the call: its arguments into locals, the hooks, then the call with the arguments loaded again.
     * {@code thisReady}: false in a constructor before its {@code super(...)} call, where no exception handler may
     * cover the call (so a writer's range is stored back on a normal return only). {@code owner}: the JDK class
     * whose method it calls ({@link #applies(InvokeInstruction, String)}); the call itself is left as it is.
     */
    static void weave(CodeBuilder b, InvokeInstruction ii, String owner, boolean thisReady) {
        if (arraysMethod(ii, owner, SET_ALL)) {
            b.loadConstant(ii.name().equalsString("parallelSetAll") ? 1 : 0);
            b.invokestatic(CD_HOOKS, "setAll", MTD_SET_ALL);
            return;
        }
        MethodTypeDesc type = ii.typeSymbol();
        int n = type.parameterCount();
        int[] locals = SingleVmWeaver.storeArguments(b, type);
        Writer writer = Writer.of(ii, owner);
        boolean deep = owner.equals("java/util/Arrays") && ii.name().stringValue().startsWith("deep")
            || deepEquals(ii, owner);
        for (int i = 0; i < n; i++) {
            boolean array = type.parameterType(i).isArray() || deepEquals(ii, owner);
            if (!array || writer != null && i == writer.parameter()) {
                continue;
            }
            b.aload(locals[i]);
            Range range = deep ? Range.NONE : Range.of(ii, owner, i);
            if (range == Range.NONE) {
                b.invokestatic(CD_HOOKS, deep ? "readArrayDeep" : "readArray", MTD_READ);
                continue;
            }
            loadBounds(b, range, locals, i);
            b.invokestatic(CD_HOOKS, "readArrayRange", MTD_READ_RANGE);
        }
        if (writer == null) {
            reload(b, type, locals, -1, -1);
            b.with(ii);
            return;
        }
        int d = writer.parameter();
        int snapshot = b.allocateLocal(TypeKind.REFERENCE);
        int target = b.allocateLocal(TypeKind.REFERENCE);
        if (ii.opcode() == Opcode.INVOKESTATIC) {
            b.aconst_null();
        } else {
            b.dup(); // the receiver: its class may run the program's own code for the method
        }
        b.ldc(ii.name().stringValue() + ii.type().stringValue());
        b.aload(locals[d]);
        loadRange(b, writer.range(), locals, d);
        b.invokestatic(CD_HOOKS, "snapshot", MTD_SNAPSHOT);
        b.astore(snapshot);
        b.aload(locals[d]);
        b.aload(snapshot);
        b.invokestatic(CD_HOOKS, "target", MTD_TARGET);
        b.astore(target);
        Label start = b.newBoundLabel();
        reload(b, type, locals, d, target);
        b.with(ii);
        Label end = b.newBoundLabel();
        storeWritten(b, writer, locals, snapshot, target);
        ClassDesc returned = type.returnType();
        if (returned.isArray() || returned.equals(CD_Object)) { // Collection.toArray(T[]) may return its argument
            b.aload(target);
            b.aload(locals[d]);
            b.invokestatic(CD_HOOKS, "result", MTD_RESULT);
            b.checkcast(returned);
        }
        if (thisReady) {
            Label after = b.newLabel();
            b.goto_(after);
            Label handler = b.newBoundLabel();
            storeWritten(b, writer, locals, snapshot, target);
            b.athrow();
            b.labelBinding(after);
            b.exceptionCatchAll(start, end, handler);
        }
    }

    /**
     * A JDK method that writes elements of its array parameter {@code parameter} (the first array parameter), in the
     * range its next two parameters give ({@code range}) or anywhere ({@link Range#NONE}).
     */
    record Writer(int parameter, Range range) {
        private static final Set<String> READS = Set.of("read", "readNBytes", "readFully");

        /**
         * The writer {@code ii} calls (a method of JDK class {@code owner}), or {@code null} when it writes no array
         * argument (as far as known).
         */
        static Writer of(InvokeInstruction ii, String owner) {
            MethodTypeDesc type = ii.typeSymbol();
            int d = 0;
            while (d < type.parameterCount() && !type.parameterType(d).isArray()) {
                d++;
            }
            if (d == type.parameterCount()) {
                return null;
            }
            String name = ii.name().stringValue();
            boolean offsetCount = d + 2 < type.parameterCount() && type.parameterType(d + 1).equals(CD_int)
                && type.parameterType(d + 2).equals(CD_int);
            if (arraysMethod(ii, owner, WRITERS)) {
                return new Writer(0, offsetCount ? Range.FROM_TO : Range.NONE);
            }
            boolean written = READS.contains(name) // java.io's streams and readers, java.util.zip's, javax.crypto's...
                || name.equals("get") && owner.startsWith("java/nio/") && owner.endsWith("Buffer")
                || name.equals("digest") && owner.equals("java/security/MessageDigest")
                || name.equals("inflate") && owner.equals("java/util/zip/Inflater")
                || name.equals("deflate") && owner.equals("java/util/zip/Deflater");
            if (written) {
                return new Writer(d, offsetCount ? Range.OFFSET_COUNT : Range.NONE);
            }
            boolean anywhere = name.equals("getChars") && type.descriptorString().equals("(II[CI)V") // CharBuffer's too
                || name.equals("getBytes") && type.descriptorString().equals("(II[BI)V") // String's, deprecated
                || name.equals("toChars") && type.descriptorString().equals("(I[CI)I") // Character's
                || name.equals("doFinal") && type.descriptorString().equals("([BI)I") // Cipher's, output only
                || name.equals("nextBytes") && type.parameterCount() == 1
                || name.equals("toArray") && type.parameterCount() == 1 && owner.startsWith("java/util/");
            if (anywhere) {
                return new Writer(d, Range.NONE);
            }
            // (input array, ..., output array, ...): Base64's decode/encode(src, dst), Cipher's update/doFinal
            boolean base64 = (name.equals("decode") || name.equals("encode")) && owner.startsWith("java/util/Base64");
            boolean intoSecond = base64
                || (name.equals("update") || name.equals("doFinal")) && owner.equals("javax/crypto/Cipher");
            int second = d + 1;
            while (second < type.parameterCount() && !type.parameterType(second).isArray()) {
                second++;
            }
            return intoSecond && second < type.parameterCount() ? new Writer(second, Range.NONE) : null;
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

        static Range of(InvokeInstruction ii, String owner, int parameter) {
            MethodTypeDesc type = ii.typeSymbol();
            if (parameter + 2 >= type.parameterCount() || !type.parameterType(parameter + 1).equals(CD_int)
                    || !type.parameterType(parameter + 2).equals(CD_int)) {
                return NONE;
            }
            if (ii.typeSymbol().descriptorString().startsWith("([BIII")) {
                return NONE; // new String(ascii, hibyte, offset, count), deprecated: not (offset, count) after it
            }
            return switch (owner) {
                case "java/util/Arrays" -> FROM_TO;
                case "java/lang/String", "java/lang/StringBuilder", "java/lang/StringBuffer" -> OFFSET_COUNT;
                default -> NONE;
            };
        }
    }

    /** Loads the call's arguments again, the array in local {@code target} in place of argument {@code d}. */
    private static void reload(CodeBuilder b, MethodTypeDesc type, int[] locals, int d, int target) {
        for (int i = 0; i < locals.length; i++) {
            ClassDesc p = type.parameterType(i);
            if (i == d) {
                b.aload(target);
                b.checkcast(p);
            } else {
                b.loadLocal(TypeKind.from(p), locals[i]);
            }
        }
    }

    private static void storeWritten(CodeBuilder b, Writer writer, int[] locals, int snapshot, int target) {
        b.aload(locals[writer.parameter()]);
        b.aload(snapshot);
        b.aload(target);
        loadRange(b, writer.range(), locals, writer.parameter());
        b.invokestatic(CD_HOOKS, "storeWritten", MTD_STORE);
    }

    /** A method of {@code java.util.Arrays} named in {@code names} whose first parameter is an array. */
    private static boolean arraysMethod(InvokeInstruction ii, String owner, Set<String> names) {
        return owner.equals("java/util/Arrays") && names.contains(ii.name().stringValue())
            && ii.typeSymbol().parameterCount() > 0 && ii.typeSymbol().parameterType(0).isArray();
    }

    /**
     * Pushes the range of argument {@code d} that the call reads or writes: {@code from, to} and false, from the two
     * arguments after it ({@code offset + count} as the end for {@link Range#OFFSET_COUNT}); else {@code 0, 0} and
     * true (all of it).
     */
    private static void loadRange(CodeBuilder b, Range range, int[] locals, int d) {
        if (range == Range.NONE) {
            b.iconst_0();
            b.iconst_0();
            b.iconst_1();
        } else {
            loadBounds(b, range, locals, d);
            b.iconst_0();
        }
    }

    /** Pushes {@code from, to} of argument {@code d} from the two arguments after it, as {@code range} reads them. */
    private static void loadBounds(CodeBuilder b, Range range, int[] locals, int d) {
        b.iload(locals[d + 1]);
        b.iload(locals[d + 2]);
        if (range == Range.OFFSET_COUNT) {
            b.iload(locals[d + 1]);
            b.iadd(); // offset + count: the end
        }
    }
}
