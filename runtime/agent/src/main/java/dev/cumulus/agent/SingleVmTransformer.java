package dev.cumulus.agent;

import java.io.PrintStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.lang.instrument.ClassFileTransformer;
import java.lang.reflect.AccessFlag;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The agent's transformer in the single-VM mode ({@code cumulus run --single-vm}): weaves every program class (not
 * the JDK's, not Cumulus's, not a library's: {@link Names#skip}) with {@link SingleVmWeaver} as it is defined. A class
 * that cannot run on a shared heap (a native method) or cannot be woven is refused: it fails to initialise with a
 * message saying why, rather than running unwoven and reading stale memory.
 *
 * <p>Runs on whichever thread loads a class; re-entrant loads on the same thread are passed through.
 */
public final class SingleVmTransformer implements ClassFileTransformer {
    private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<>();

    private final PrintStream err;
    private final AgentSettings settings;
    private final Map<ClassLoader, LoaderState> loaders = Collections.synchronizedMap(new WeakHashMap<>());

    private record LoaderState(ProgramClasses classes, ClassFile classFile) {
    }

    /**
     * A transformer that reports refusals to {@code err}, with the agent's diagnostics: {@code verbose} names each
     * woven class on {@code err}, {@code dumpDir} gets every woven or refused class file.
     */
    public SingleVmTransformer(PrintStream err, AgentSettings settings) {
        this.err = err;
        this.settings = settings;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        if (className == null || loader == null || classfileBuffer == null || classBeingRedefined != null
                || Names.skip(className) || BUSY.get() != null) {
            return null;
        }
        BUSY.set(Boolean.TRUE);
        try {
            return weave(loader, className, classfileBuffer);
        } finally {
            BUSY.remove();
        }
    }

    /** The woven bytes of {@code className}, or its refusal; {@code null} if already woven. */
    byte[] weave(ClassLoader loader, String className, byte[] bytes) {
        LoaderState st;
        synchronized (loaders) {
            st = loaders.computeIfAbsent(loader, l -> new LoaderState(new ProgramClasses(l), Weaver.classFile(l)));
        }
        ClassModel cm = st.classFile().parse(bytes);
        if (SingleVmWeaver.alreadyWoven(cm)) {
            return null;
        }
        for (MethodModel m : cm.methods()) {
            if (m.flags().has(AccessFlag.NATIVE)) {
                return refuse(st, cm, "class " + Names.dotted(className) + " declares the native method "
                    + m.methodName().stringValue() + ": the single-VM mode cannot run a program's native code on a "
                    + "shared heap (move it to a library outside the program's classes, or run without --single-vm)");
            }
        }
        st.classes().defining(cm);
        byte[] woven;
        try {
            woven = SingleVmWeaver.weave(st.classFile(), cm, st.classes());
        } catch (RuntimeException | LinkageError e) {
            return refuse(st, cm, "the Cumulus agent cannot weave class " + Names.dotted(className)
                + " for the single-VM mode: " + e);
        }
        if (settings.verbose()) {
            err.println("cumulus-agent: wove " + Names.dotted(className));
        }
        WovenClassDump.write(settings.dumpDir(), className, woven, err);
        return woven;
    }

    private byte[] refuse(LoaderState st, ClassModel cm, String message) {
        err.println("cumulus-agent: " + message);
        byte[] refused = Weaver.refuse(st.classFile(), cm, message);
        WovenClassDump.write(settings.dumpDir(), cm.thisClass().asInternalName(), refused, err);
        return refused;
    }
}
