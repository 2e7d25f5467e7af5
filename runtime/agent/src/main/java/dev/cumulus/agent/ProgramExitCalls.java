package dev.cumulus.agent;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Opcode;
import java.lang.classfile.instruction.InvokeDynamicInstruction;
import java.lang.classfile.instruction.InvokeInstruction;
import java.lang.constant.ClassDesc;
import java.lang.constant.ConstantDesc;
import java.lang.constant.DirectMethodHandleDesc;
import java.lang.constant.DynamicCallSiteDesc;
import java.lang.constant.MethodHandleDesc;
import java.lang.constant.MethodTypeDesc;

import static java.lang.constant.ConstantDescs.CD_int;
import static java.lang.constant.ConstantDescs.CD_void;

/**
 * The program's end, woven for the single-VM mode: {@code System.exit(n)}, {@code Runtime.exit(n)} and
 * {@code Runtime.halt(n)} in the program's code end every node with {@code n} (the one JVM the program believes it
 * runs on), where the JDK's own call would end only the node it runs on and leave the others to report that node as
 * failed. Each call becomes the hook of the same name in {@code SingleVmHooks}, with the same operands on the stack; a
 * method reference to one of them ({@code IntConsumer e = System::exit}, {@code Runtime.getRuntime()::halt}) is made
 * with that hook as its implementation.
 */
final class ProgramExitCalls {
    private static final ClassDesc CD_HOOKS = ClassDesc.ofInternalName(SingleVmWeaver.HOOKS);
    private static final ClassDesc CD_RUNTIME = ClassDesc.of("java.lang.Runtime");
    private static final ClassDesc CD_SYSTEM = ClassDesc.of("java.lang.System");
    private static final ClassDesc CD_LAMBDA_METAFACTORY = ClassDesc.of("java.lang.invoke.LambdaMetafactory");
    private static final MethodTypeDesc MTD_EXIT = MethodTypeDesc.of(CD_void, CD_int);
    private static final MethodTypeDesc MTD_RUNTIME_EXIT = MethodTypeDesc.of(CD_void, CD_RUNTIME, CD_int);

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
            b.invokestatic(CD_HOOKS, "exit", MTD_EXIT);
        } else {
            b.invokestatic(CD_HOOKS, ii.name().stringValue(), MTD_RUNTIME_EXIT);
        }
    }

    /**
     * The hook a method reference {@code indy} (a {@code LambdaMetafactory} call site) should call instead of its
     * implementation, {@code System.exit}, {@code Runtime.exit} or {@code Runtime.halt}; {@code null} for any other.
     */
    static DirectMethodHandleDesc reference(InvokeDynamicInstruction indy) {
        if (!indy.bootstrapMethod().owner().equals(CD_LAMBDA_METAFACTORY) || indy.bootstrapArgs().size() < 2
                || !(indy.bootstrapArgs().get(1) instanceof DirectMethodHandleDesc impl)
                || !impl.invocationType().returnType().equals(CD_void)) {
            return null;
        }
        if (impl.kind() == DirectMethodHandleDesc.Kind.STATIC && impl.owner().equals(CD_SYSTEM)
                && impl.methodName().equals("exit") && impl.invocationType().equals(MTD_EXIT)) {
            return MethodHandleDesc.ofMethod(DirectMethodHandleDesc.Kind.STATIC, CD_HOOKS, "exit", MTD_EXIT);
        }
        if (impl.kind() == DirectMethodHandleDesc.Kind.VIRTUAL && impl.owner().equals(CD_RUNTIME)
                && (impl.methodName().equals("exit") || impl.methodName().equals("halt"))
                && impl.invocationType().equals(MTD_RUNTIME_EXIT)) {
            return MethodHandleDesc.ofMethod(DirectMethodHandleDesc.Kind.STATIC, CD_HOOKS, impl.methodName(),
                MTD_RUNTIME_EXIT);
        }
        return null;
    }

    /** The method reference {@code indy} made with the hook {@link #reference} names as its implementation. */
    static void weaveReference(CodeBuilder b, InvokeDynamicInstruction indy) {
        ConstantDesc[] args = indy.bootstrapArgs().toArray(ConstantDesc[]::new);
        args[1] = reference(indy);
        b.invokedynamic(DynamicCallSiteDesc.of(indy.bootstrapMethod(), indy.name().stringValue(), indy.typeSymbol(),
            args));
    }
}
