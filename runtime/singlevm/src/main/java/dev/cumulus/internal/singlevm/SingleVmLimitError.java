package dev.cumulus.internal.singlevm;

/**
 * The program went beyond a limit of {@code cumulus run --single-vm}: it did something that one JVM allows but the
 * nodes cannot do as one (docs/design/SINGLEVM.md, "Limits"), such as using on one node a JDK object another node
 * made. An {@code Error}, not an exception, so that the program's {@code catch (Exception e)} does not take it for
 * one of its own failures and go on with a wrong result; and the run ends whatever the program does with it: before
 * it is thrown, {@link LimitStop} has reported it to the launcher and begun to stop the node.
 */
public final class SingleVmLimitError extends Error {
    private static final long serialVersionUID = 1L;

    SingleVmLimitError(String message) {
        super(message);
    }
}
