package dev.cumulus.agent;

import dev.cumulus.internal.cloud.CloudHooks;
import dev.cumulus.internal.launch.LaunchConfig;
import dev.cumulus.internal.launch.LauncherWatch;
import java.lang.instrument.Instrumentation;
import java.lang.instrument.UnmodifiableClassException;
import java.util.ArrayList;
import java.util.List;

/**
 * The Cumulus Java agent: {@code -javaagent:cumulus-agent.jar} (premain) or attached to a running JVM (agentmain,
 * see {@code dev.cumulus.internal.cloud.AgentLoader}). Registers the {@link CloudTransformer}; when attached, also
 * retransforms every already-loaded cloud class. What is woven and why: {@code docs/design/AGENT.md}. With
 * {@code -Dcumulus.singleVm=true} it registers the {@link SingleVmTransformer} instead (docs/design/SINGLEVM.md).
 *
 * <p>The jar's dependencies ({@code cumulus-runtime}, {@code cumulus-launch}, {@code cumulus-analysis}) must be on the application
 * classpath; the launcher puts them there.
 */
public final class CumulusAgent {
    /** Set to {@code true} on a node of {@code cumulus run --single-vm}: the agent weaves program classes for it. */
    private static Instrumentation instrumentation;
    private static CloudTransformer transformer;

    private CumulusAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        if (System.getProperty(LaunchConfig.LAUNCHER_PID) != null) {
            // a node of cumulus run dies with its launcher; only there is runtime/launch sure to be on the class path
            LauncherWatch.startIfLaunched();
        }
        install(inst, false);
        RecordedEvents.registerWhenRecording(ClassLoader.getSystemClassLoader(), System.err);
    }

    public static void agentmain(String args, Instrumentation inst) {
        install(inst, true);
    }

    /** The instrumentation the agent was started with, or {@code null} if it is not installed. */
    public static synchronized Instrumentation instrumentation() {
        return instrumentation;
    }

    private static synchronized void install(Instrumentation inst, boolean retransformLoaded) {
        if (instrumentation != null) {
            CloudHooks.markAgentInstalled();
            return;
        }
        instrumentation = inst;
        if (Boolean.getBoolean(LaunchConfig.SINGLE_VM)) {
            for (String n : List.of("SingleVmTransformer", "SingleVmTransformer$LoaderState", "SingleVmWeaver",
                    "SingleVmWeaver$CodeWeave", "SingleVmWeaver$Monitor", "ProgramClasses",
                    "ProgramClasses$Header", "ProgramClasses$FieldInfo", "Weaver")) {
                try {
                    Class.forName("dev.cumulus.agent." + n, true, CumulusAgent.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException("the Cumulus agent jar is incomplete: " + e.getMessage(), e);
                }
            }
            inst.addTransformer(new SingleVmTransformer(System.err), false);
            return;
        }
        preload();
        transformer = new CloudTransformer(System.err);
        inst.addTransformer(transformer, true);
        if (retransformLoaded) {
            long t0 = System.nanoTime();
            int n = retransformLoadedCloudClasses(inst, transformer);
            if (CloudTransformer.VERBOSE) {
                System.err.println("cumulus-agent: attached; retransformed " + n + " loaded cloud classes in "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms");
            }
        }
        CloudHooks.markAgentInstalled();
    }

    /**
     * Loads the classes the transformer's first steps use before it is registered: otherwise loading one of them
     * would run the transformer on itself, and the nested load would define the class twice (LinkageError).
     */
    private static void preload() {
        Names.skip("");
        for (String n : List.of("CloudTransformer", "CloudTransformer$LoaderState", "LoaderClassSource", "Weaver",
                "Weaver$Plan", "Weaver$MethodWeave", "Refusals", "Refusals$Refusal")) {
            try {
                Class.forName("dev.cumulus.agent." + n, true, CumulusAgent.class.getClassLoader());
            } catch (ClassNotFoundException e) {
                throw new IllegalStateException("the Cumulus agent jar is incomplete: " + e.getMessage(), e);
            }
        }
    }

    /** Retransforms (one by one, so one failure does not stop the others) every loaded cloud class. */
    static int retransformLoadedCloudClasses(Instrumentation inst, CloudTransformer t) {
        if (!inst.isRetransformClassesSupported()) {
            System.err.println("cumulus-agent: this JVM cannot retransform classes; cloud classes loaded before the "
                    + "agent attached are not woven (start the JVM with -javaagent:cumulus-agent.jar)");
            return 0;
        }
        List<Class<?>> cloud = new ArrayList<>();
        for (Class<?> c : inst.getAllLoadedClasses()) {
            if (c.isArray() || c.isPrimitive() || c.isHidden() || c.getClassLoader() == null
                    || !inst.isModifiableClass(c)) {
                continue;
            }
            String internal = c.getName().replace('.', '/');
            if (!Names.skip(internal) && implementsCloud(c)) {
                cloud.add(c);
            }
        }
        for (Class<?> c : cloud) {
            try {
                inst.retransformClasses(c);
            } catch (UnmodifiableClassException | RuntimeException | LinkageError e) {
                System.err.println("cumulus-agent: cannot retransform " + c.getName() + ", left unchanged: " + e);
            }
        }
        return cloud.size();
    }

    private static boolean implementsCloud(Class<?> c) {
        for (Class<?> k = c; k != null; k = k.getSuperclass()) {
            for (Class<?> i : k.getInterfaces()) {
                if (i.getName().equals("dev.cumulus.Cloud$Root") || i.getName().equals("dev.cumulus.Cloud$Node")
                        || implementsCloud(i)) {
                    return true;
                }
            }
        }
        return false;
    }
}
