package dev.cumulus.internal.rpc;

import java.util.Arrays;

/**
 * Puts the caller's frames under a failed remote call's exception, as Java RMI does: the exception that comes back
 * shows the remote stack (where it was thrown), and without this nothing of where the call was made, since it was
 * made on another node (or, for a failed node, on the thread that heard of it). An exception made on the calling
 * thread (a timeout, an interrupt) has those frames already and is left alone.
 */
final class CallerFrames {
    private CallerFrames() {
    }

    /**
     * {@code failure} with the calling thread's frames below {@code entry} (a method of {@code entryClass}, the
     * proxy's handler) appended to its stack trace, unless it ends with them already.
     */
    static Throwable appended(Throwable failure, Class<?> entryClass, String entry) {
        StackTraceElement[] here = new Throwable().getStackTrace();
        int from = 0;
        while (from < here.length && !(here[from].getClassName().equals(entryClass.getName())
            && here[from].getMethodName().equals(entry))) {
            from++;
        }
        if (from == here.length) {
            return failure; // not called through the entry: nothing to tell
        }
        StackTraceElement[] caller = Arrays.copyOfRange(here, from + 1, here.length); // from the proxy's frame down
        StackTraceElement[] thrown = failure.getStackTrace();
        if (caller.length == 0 || endsWith(thrown, caller)) {
            return failure;
        }
        StackTraceElement[] both = Arrays.copyOf(thrown, thrown.length + caller.length);
        System.arraycopy(caller, 0, both, thrown.length, caller.length);
        failure.setStackTrace(both);
        return failure;
    }

    private static boolean endsWith(StackTraceElement[] frames, StackTraceElement[] tail) {
        if (frames.length < tail.length) {
            return false;
        }
        int offset = frames.length - tail.length;
        for (int i = 0; i < tail.length; i++) {
            if (!frames[offset + i].equals(tail[i])) {
                return false;
            }
        }
        return true;
    }
}
