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
 * retransforms every already-loaded cloud class. What is woven and why: {@code docs/design/AGENT.md}. The options
 * after the jar ({@code -javaagent:cumulus-agent.jar=verbose,dumpDir=DIR}) are read once, into {@link AgentSettings};
 * bad ones stop the JVM at start with exit code 2 and a line saying what is wrong and what the options are. With
 * {@code -Dcumulus.singleVm=true} it registers the {@link SingleVmTransformer} instead (docs/design/SINGLEVM.md).
 *
 * <p>The jar's dependencies ({@code cumulus-runtime}, {@code cumulus-launch}, {@code cumulus-analysis}) must be on the application
 * classpath; the launcher puts them there.
 */
public final class CumulusAgent {
    /** The exit code of a JVM whose {@code -javaagent:} options are bad: a usage error, as {@code cumulus}'s. */
    static final int EXIT_BAD_OPTIONS = 2;
    /** The instrumentation of the first install; later ones (an attach after {@code -javaagent:}) change nothing. */
    private static Instrumentation instrumentation;
    private static CloudTransformer transformer;

    private CumulusAgent() {
    }

    public static void premain(String args, Instrumentation inst) {
        AgentSettings settings;
        try {
            settings = AgentSettings.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("cumulus-agent: " + e.getMessage() + " (e.g. -javaagent:cumulus-agent.jar="
                    + AgentSettings.EXAMPLE + ")");
            System.exit(EXIT_BAD_OPTIONS);
            return;
        }
        if (System.getProperty(LaunchConfig.LAUNCHER_PID) != null) {
            // a node of cumulus run dies with its launcher; only there is runtime/launch sure to be on the class path
            LauncherWatch.startIfLaunched();
        }
        install(inst, settings, false);
        RecordedEvents.registerWhenRecording(ClassLoader.getSystemClassLoader(), System.err);
    }

    /**
     * Attached to a running JVM: the options are those of {@code -javaagent:}; bad ones fail the attach (the
     * attaching side gets the message) and leave the JVM running without the agent.
     */
    public static void agentmain(String args, Instrumentation inst) {
        install(inst, AgentSettings.parse(args), true);
    }

    /** The instrumentation the agent was started with, or {@code null} if it is not installed. */
    public static synchronized Instrumentation instrumentation() {
        return instrumentation;
    }

    private static synchronized void install(Instrumentation inst, AgentSettings settings, boolean retransformLoaded) {
        if (instrumentation != null) {
            CloudHooks.markAgentInstalled();
            return;
        }
        instrumentation = inst;
        if (Boolean.getBoolean(LaunchConfig.SINGLE_VM)) {
            for (String n : List.of("SingleVmTransformer", "SingleVmTransformer$LoaderState", "WovenClassDump",
                    "SingleVmWeaver", "SingleVmWeaver$CodeWeave", "SingleVmWeaver$Monitor", "ProgramClasses",
                    "ProgramClasses$Header", "ProgramClasses$FieldInfo", "Weaver")) {
                try {
                    Class.forName("dev.cumulus.agent." + n, true, CumulusAgent.class.getClassLoader());
                } catch (ClassNotFoundException e) {
                    throw new IllegalStateException("the Cumulus agent jar is incomplete: " + e.getMessage(), e);
                }
            }
            inst.addTransformer(new SingleVmTransformer(System.err, settings), false);
            return;
        }
        preload();
        transformer = new CloudTransformer(System.err, settings);
        inst.addTransformer(transformer, true);
        if (retransformLoaded) {
            long t0 = System.nanoTime();
            int n = retransformLoadedCloudClasses(inst, transformer);
            if (settings.verbose()) {
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
