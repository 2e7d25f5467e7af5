package dev.cumulus.internal.singlevm;

import java.lang.reflect.Constructor;
import java.util.ArrayList;
import java.util.List;

/**
 * An uncaught exception of a program thread that ran on another node, as text: its class, message and stack frames
 * (one per line, {@code class\tmethod\tfile\tline}). The creator's node rebuilds an exception from it for the thread's
 * uncaught-exception handler: of the same class when that class has a public {@code (String)} constructor, else an
 * {@code IllegalStateException} naming it; with the original frames.
 */
record ThreadFailure(String className, String message, String frames) {
    static ThreadFailure of(Throwable e) {
        StringBuilder sb = new StringBuilder();
        for (StackTraceElement f : e.getStackTrace()) {
            sb.append(f.getClassName()).append('\t').append(f.getMethodName()).append('\t')
                .append(f.getFileName() == null ? "" : f.getFileName()).append('\t').append(f.getLineNumber())
                .append('\n');
        }
        return new ThreadFailure(e.getClass().getName(), e.getMessage(), sb.toString());
    }

    /** The exception to hand to the handler; classes are looked up through {@code space}. */
    Throwable rebuild(ObjectSpace space) {
        Throwable t = null;
        try {
            Class<?> type = space.loadClass(className);
            if (Throwable.class.isAssignableFrom(type)) {
                Constructor<?> c = type.getConstructor(String.class);
                t = (Throwable) c.newInstance(message);
            }
        } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
            t = null;
        }
        if (t == null) {
            t = new IllegalStateException(className + (message != null ? ": " + message : ""));
        }
        List<StackTraceElement> at = new ArrayList<>();
        for (String line : frames.split("\n")) {
            String[] f = line.split("\t", -1);
            if (f.length == 4) {
                at.add(new StackTraceElement(f[0], f[1], f[2].isEmpty() ? null : f[2], Integer.parseInt(f[3])));
            }
        }
        t.setStackTrace(at.toArray(StackTraceElement[]::new));
        return t;
    }
}
