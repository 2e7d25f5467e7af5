package dev.cumulus.agent;

import dev.cumulus.analysis.AnalysisResult;
import dev.cumulus.analysis.CloudAnalyzer;
import dev.cumulus.analysis.Finding;
import dev.cumulus.analysis.FindingFormatter;
import dev.cumulus.analysis.Rules;
import dev.cumulus.analysis.Severity;
import dev.cumulus.internal.cloud.CloudHooks;
import java.io.PrintStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.instrument.ClassFileTransformer;
import java.security.ProtectionDomain;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The agent's {@link ClassFileTransformer} (retransform-capable). For each class being defined or retransformed:
 * library and runtime classes are skipped by name; the others are parsed far enough to tell whether they implement
 * {@code Cloud.Root} or {@code Cloud.Node} (supertypes read as resources of the defining loader, cached). A cloud
 * class is analysed with {@link CloudAnalyzer#analyzeClass} (one analyzer per defining loader) and then either
 * refused (error findings) or woven ({@link Weaver}). A non-cloud class whose constant pool names a cloud class or
 * {@code Cluster} is analysed too and refused on error findings (CUM106: it touches a cloud's fields), never woven:
 * the agent refuses every class {@code cumulus check} reports an error in. What it prints and dumps besides is up to
 * the {@link AgentSettings} it is built with.
 *
 * <p>Never throws and never swallows: a failure is printed as one line on stderr naming the class and the cause,
 * and the class is left as it was. Runs on whichever thread loads a class; re-entrant loads on the same thread
 * (classes the analysis itself needs) are passed through.
 */
public final class CloudTransformer implements ClassFileTransformer {
    private static final ThreadLocal<Boolean> BUSY = new ThreadLocal<>();
    private final PrintStream err;
    private final AgentSettings settings;
    private final Map<ClassLoader, LoaderState> loaders = Collections.synchronizedMap(new WeakHashMap<>());

    private record LoaderState(LoaderClassSource source, CloudAnalyzer analyzer, ClassFile classFile) {
    }

    /**
     * A transformer that reports to {@code err} (the agent passes {@link System#err}) with the diagnostics
     * {@code settings} ask for.
     */
    public CloudTransformer(PrintStream err, AgentSettings settings) {
        this.err = err;
        this.settings = settings;
    }

    @Override
    public byte[] transform(ClassLoader loader, String className, Class<?> classBeingRedefined,
                            ProtectionDomain protectionDomain, byte[] classfileBuffer) {
        if (className == null || loader == null || classfileBuffer == null || Names.skip(className)
                || BUSY.get() != null) {
            return null;
        }
        BUSY.set(Boolean.TRUE);
        try {
            return transformOrNull(loader, className, classBeingRedefined != null, classfileBuffer);
        } catch (Throwable t) {
            err.println("cumulus-agent: cannot weave " + Names.dotted(className) + ", left unchanged: " + t
                    + (t.getStackTrace().length > 0 ? " at " + t.getStackTrace()[0] : ""));
            if (settings.debug()) {
                t.printStackTrace(err);
            }
            return null;
        } finally {
            BUSY.remove();
        }
    }

    /** True if {@code className} defined by {@code loader} is a cloud class (for the agent's retransform pass). */
    boolean isCloud(ClassLoader loader, String className) {
        return state(loader).source().isCloud(className);
    }

    private LoaderState state(ClassLoader loader) {
        synchronized (loaders) {
            return loaders.computeIfAbsent(loader, l -> {
                LoaderClassSource s = new LoaderClassSource(l);
                return new LoaderState(s, new CloudAnalyzer(s), Weaver.classFile(l));
            });
        }
    }

    private byte[] transformOrNull(ClassLoader loader, String className, boolean retransform, byte[] bytes) {
        LoaderState st = state(loader);
        if (!st.source().supertypesAreCloud(bytes)) {
            return st.source().mentionsCloud(bytes) ? checkOutsideCode(st, className, retransform, bytes) : null;
        }
        ClassModel cm = st.classFile().parse(bytes);
        if (Weaver.alreadyWoven(cm)) {
            return null;
        }
        st.source().defining(className, bytes);
        AnalysisResult result = st.analyzer().analyzeClass(className);
        List<Finding> errors = result.findings().stream().filter(f -> f.severity() == Severity.ERROR).toList();
        if (!errors.isEmpty()) {
            return refuse(st, cm, className, errors, retransform);
        }
        if (settings.verbose()) {
            result.findings().forEach(f -> err.println(FindingFormatter.format(f)));
        }
        byte[] woven = Weaver.weave(st.classFile(), cm, result);
        if (Weaver.waitFree(cm)) {
            CloudHooks.recordWaitFree(loader, Names.dotted(className));
        }
        CloudHooks.recordWoven(Names.dotted(className));
        if (settings.verbose()) {
            err.println("cumulus-agent: " + (woven == null ? "nothing to weave in " : "wove ") + Names.dotted(className));
        }
        dump(className, woven);
        return woven;
    }

    /**
     * A class outside the clouds that names a cloud class: the checker may report errors in it too (CUM106, a cloud
     * field read or written from outside; CUM102, a cloud published as a remote object), and the agent refuses it
     * as it refuses a cloud class, so a run without the pre-run check cannot let it break the replicas. It is never
     * woven.
     */
    private byte[] checkOutsideCode(LoaderState st, String className, boolean retransform, byte[] bytes) {
        st.source().defining(className, bytes);
        List<Finding> errors = st.analyzer().analyzeClass(className).findings().stream()
                .filter(f -> f.severity() == Severity.ERROR).toList();
        return errors.isEmpty() ? null : refuse(st, st.classFile().parse(bytes), className, errors, retransform);
    }

    private byte[] refuse(LoaderState st, ClassModel cm, String className, List<Finding> errors,
                          boolean retransform) {
        String message = refusalMessage(className, errors);
        Refusals.record(new Refusals.Refusal(Names.dotted(className), message, errors, !retransform));
        tellRuntime(Names.dotted(className), message);
        if (retransform) {
            err.println("cumulus-agent: " + message.replace("\n", "\n  ")
                    + "\n  (the class was loaded before the agent attached: it stays usable but is not woven; "
                    + "start the JVM with -javaagent:cumulus-agent.jar to refuse it at load time)");
            return null;
        }
        err.print(FindingFormatter.formatAll(errors));
        err.println("cumulus-agent: refused " + Names.dotted(className) + " (" + errors.size()
                + (errors.size() == 1 ? " error" : " errors") + "); it cannot be initialized");
        byte[] refused = Weaver.refuse(st.classFile(), cm, message);
        dump(className, refused);
        return refused;
    }

    /** The cloud runtime refuses to replicate the class even when it was loaded before the agent. */
    private static void tellRuntime(String dottedName, String message) {
        CloudHooks.recordRefusal(dottedName, message);
    }

    /** With the {@code dumpDir=DIR} option, writes each woven class to DIR/name.class (for javap). */
    private void dump(String className, byte[] bytes) {
        WovenClassDump.write(settings.dumpDir(), className, bytes, err);
    }

    /**
     * {@code class X violates CUM104, CUM107 of the replication restrictions:} followed by one compiler-style line
     * per error, each naming its rule page.
     */
    static String refusalMessage(String className, List<Finding> errors) {
        StringBuilder sb = new StringBuilder("class ").append(Names.dotted(className)).append(" violates ")
                .append(String.join(", ", errors.stream().map(Finding::ruleId).distinct().sorted().toList()))
                .append(" of the replication restrictions and was refused by the Cumulus agent:");
        errors.stream().sorted(FindingFormatter.ORDER).forEach(f -> {
            sb.append("\n  ").append(FindingFormatter.format(f));
            Rules.byId(f.ruleId()).ifPresent(r -> sb.append(" (see ").append(r.docPath()).append(')'));
        });
        return sb.toString();
    }
}
