package dev.cumulus.agent;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.MethodTypeDesc;

import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

/**
 * The program's end, woven for the single-VM mode: {@code System.exit(n)}, {@code Runtime.exit(n)} and
 * {@code Runtime.halt(n)} in the program's code end every node with {@code n} (the one JVM the program believes it
 * runs on), where the JDK's own call would end only the node it runs on and leave the others to report that node as
 * failed. Each call becomes the hook of the same name in {@code SingleVmHooks}, with the same operands on the stack.
 */
final class ProgramExitCalls {
    private static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName(SingleVmWeaver.HOOKS);
    private static final ClassDesc CD_RUNTIME = ClassDesc.of("java.lang.Runtime");

    private ProgramExitCalls() {
    }

    /** True for {@code System.exit(int)}, {@code Runtime.exit(int)} and {@code Runtime.halt(int)}. */
    static boolean applies(InvokeInstruction ii) {
        if (!ii.type().equalsString("(I)V")) {
            return false;
        }
        String owner = ii.owner().asInternalName();
        return ii.opcode() == Opcode.INVOKESTATIC && owner.equals("java/lang/System") && ii.name().equalsString("exit")
            || ii.opcode() == Opcode.INVOKEVIRTUAL && owner.equals("java/lang/Runtime")
            && (ii.name().equalsString("exit") || ii.name().equalsString("halt"));
    }

    /** Replaces the call {@link #applies} accepted by its hook. */
    static void weave(CodeBuilder b, InvokeInstruction ii) {
        if (ii.opcode() == Opcode.INVOKESTATIC) {
            b.invokestatic(CD_HOOKS, "exit", MethodTypeDesc.of(CD_void, CD_int));
        } else {
            b.invokestatic(CD_HOOKS, ii.name().stringValue(), MethodTypeDesc.of(CD_void, CD_RUNTIME, CD_int));
        }
    }
}
