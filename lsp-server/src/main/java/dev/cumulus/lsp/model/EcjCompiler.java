package dev.cumulus.lsp.model;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.eclipse.jdt.internal.compiler.ClassFile;
import org.eclipse.jdt.internal.compiler.CompilationResult;
import org.eclipse.jdt.internal.compiler.Compiler;
import org.eclipse.jdt.internal.compiler.DefaultErrorHandlingPolicies;
import org.eclipse.jdt.internal.compiler.batch.CompilationUnit;
import org.eclipse.jdt.internal.compiler.batch.FileSystem;
import org.eclipse.jdt.internal.compiler.env.ICompilationUnit;
import org.eclipse.jdt.internal.compiler.impl.CompilerOptions;
import org.eclipse.jdt.internal.compiler.problem.DefaultProblemFactory;
import org.eclipse.jdt.core.compiler.CategorizedProblem;
import org.eclipse.jdt.core.compiler.CharOperation;
import org.eclipse.jdt.internal.compiler.classfmt.ClassFileReader;
import org.eclipse.jdt.internal.compiler.classfmt.ClassFormatException;
import org.eclipse.jdt.internal.compiler.env.INameEnvironment;
import org.eclipse.jdt.internal.compiler.env.NameEnvironmentAnswer;

/**
 * Compiles source texts in memory with the Eclipse compiler (ECJ), proceeding on errors: a unit with a syntax or type
 * error in one method still yields class files whose other methods are intact (the broken method throws at run time),
 * which is what lets the analyzer report on the parts of a file that compile.
 *
 * <p>Class files carry line numbers, local variables and the SourceFile attribute (like {@code javac -g}). The JDK is
 * read from the running JVM's own image ({@code lib/jrt-fs.jar}). Not thread-safe; the analysis thread owns it.
 */
final class EcjCompiler {
    /** One compiled unit: its class files by internal name and its compile problems. */
    record UnitOutput(Map<String, byte[]> classes, List<CompileProblem> problems) {
    }

    /** One compile problem (error or warning) with a 1-based line. */
    record CompileProblem(boolean error, int line, int startOffset, int endOffset, String message) {
    }

    private final Map<String, String> options;

    EcjCompiler() {
        // the running JDK's release: its java.lang.classfile (the analyzer) reads no newer class files, and its
        // jrt image is the class library we compile against
        String v = Integer.toString(Runtime.version().feature());
        if (CompilerOptions.versionToJdkLevel(v) == 0) {
            v = CompilerOptions.getLatestVersion();
        }
        Map<String, String> o = new HashMap<>();
        o.put(CompilerOptions.OPTION_Compliance, v);
        o.put(CompilerOptions.OPTION_Source, v);
        o.put(CompilerOptions.OPTION_TargetPlatform, v);
        o.put(CompilerOptions.OPTION_Release, CompilerOptions.DISABLED);
        o.put(CompilerOptions.OPTION_LineNumberAttribute, CompilerOptions.GENERATE);
        o.put(CompilerOptions.OPTION_SourceFileAttribute, CompilerOptions.GENERATE);
        o.put(CompilerOptions.OPTION_LocalVariableAttribute, CompilerOptions.GENERATE);
        o.put(CompilerOptions.OPTION_PreserveUnusedLocal, CompilerOptions.PRESERVE);
        o.put(CompilerOptions.OPTION_MethodParametersAttribute, CompilerOptions.GENERATE);
        o.put(CompilerOptions.OPTION_ReportUnusedImport, CompilerOptions.IGNORE);
        o.put(CompilerOptions.OPTION_ReportUnusedLocal, CompilerOptions.IGNORE);
        o.put(CompilerOptions.OPTION_ReportRawTypeReference, CompilerOptions.IGNORE);
        o.put(CompilerOptions.OPTION_ReportUncheckedTypeOperation, CompilerOptions.IGNORE);
        o.put(CompilerOptions.OPTION_ReportUnusedPrivateMember, CompilerOptions.IGNORE);
        o.put(CompilerOptions.OPTION_ReportDeprecation, CompilerOptions.IGNORE);
        o.put(CompilerOptions.OPTION_Process_Annotations, CompilerOptions.DISABLED);
        options = Map.copyOf(o);
    }

    private List<String> envClasspath;
    private FileSystem env;
    private final Map<String, String> lastText = new HashMap<>();
    private final Map<String, UnitOutput> lastOutput = new HashMap<>();

    /**
     * Compiles the given sources (uri to text) against the classpath. Incremental: only units whose text changed are
     * recompiled, against the class files of the others from the previous call; a full compile happens when
     * {@code full} is set, the classpath changes or a unit disappears. (A signature change in one unit therefore does
     * not recompile its users until the next full compile; their class files, which the analyzer reads, stay valid.)
     *
     * @return one output per uri, in the order given
     */
    Map<String, UnitOutput> compile(Map<String, String> sources, List<Path> classpath, boolean full) {
        List<String> cp = new ArrayList<>();
        cp.add(Path.of(System.getProperty("java.home"), "lib", "jrt-fs.jar").toString());
        for (Path p : classpath) {
            File f = p.toFile();
            if (f.exists()) {
                cp.add(f.getAbsolutePath());
            }
        }
        if (!cp.equals(envClasspath)) {
            if (env != null) {
                env.cleanup();
            }
            env = new FileSystem(cp.toArray(String[]::new), new String[0], "UTF-8");
            envClasspath = cp;
            full = true;
        }
        if (!sources.keySet().containsAll(lastText.keySet())) {
            full = true;
        }
        if (full) {
            lastText.clear();
            lastOutput.clear();
        }
        Map<String, String> changed = new LinkedHashMap<>();
        sources.forEach((uri, text) -> {
            if (!text.equals(lastText.get(uri))) {
                changed.put(uri, text);
            }
        });
        Map<String, byte[]> binaries = new HashMap<>();
        lastOutput.forEach((uri, unit) -> {
            if (!changed.containsKey(uri)) {
                binaries.putAll(unit.classes());
            }
        });
        if (!changed.isEmpty()) {
            Map<String, UnitOutput> fresh = compileUnits(changed, binaries);
            lastOutput.putAll(fresh);
            lastText.putAll(changed);
        }
        Map<String, UnitOutput> out = new LinkedHashMap<>();
        for (String uri : sources.keySet()) {
            out.put(uri, lastOutput.getOrDefault(uri, new UnitOutput(Map.of(), List.of())));
        }
        return out;
    }

    private Map<String, UnitOutput> compileUnits(Map<String, String> sources, Map<String, byte[]> binaries) {
        Map<String, UnitOutput> out = new LinkedHashMap<>();
        List<ICompilationUnit> units = new ArrayList<>();
        Map<String, String> uriByFileName = new HashMap<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            String fileName = Workspace.pathOf(e.getKey()).toString();
            uriByFileName.put(fileName, e.getKey());
            units.add(new CompilationUnit(e.getValue().toCharArray(), fileName, "UTF-8"));
            out.put(e.getKey(), new UnitOutput(new LinkedHashMap<>(), new ArrayList<>()));
        }
        CompilerOptions co = new CompilerOptions(options);
        co.performMethodsFullRecovery = true;
        co.performStatementsRecovery = true;
        Compiler compiler = new Compiler(new WithBinaries(env, binaries),
                DefaultErrorHandlingPolicies.proceedWithAllProblems(), co,
                (CompilationResult result) -> collect(result, uriByFileName, out),
                new DefaultProblemFactory(Locale.ROOT));
        compiler.compile(units.toArray(ICompilationUnit[]::new));
        return out;
    }

    /** The classpath plus class files of workspace units that were not recompiled. */
    private record WithBinaries(FileSystem classpath, Map<String, byte[]> binaries) implements INameEnvironment {
        @Override
        public NameEnvironmentAnswer findType(char[][] compoundTypeName) {
            NameEnvironmentAnswer a = binary(CharOperation.toString(compoundTypeName).replace('.', '/'));
            return a != null ? a : classpath.findType(compoundTypeName);
        }

        @Override
        public NameEnvironmentAnswer findType(char[] typeName, char[][] packageName) {
            String pkg = CharOperation.toString(packageName).replace('.', '/');
            NameEnvironmentAnswer a = binary((pkg.isEmpty() ? "" : pkg + "/") + new String(typeName));
            return a != null ? a : classpath.findType(typeName, packageName);
        }

        private NameEnvironmentAnswer binary(String internalName) {
            byte[] b = binaries.get(internalName);
            if (b == null) {
                return null;
            }
            try {
                return new NameEnvironmentAnswer(new ClassFileReader(b, (internalName + ".class").toCharArray()), null);
            } catch (ClassFormatException e) {
                return null;
            }
        }

        @Override
        public boolean isPackage(char[][] parentPackageName, char[] packageName) {
            String prefix = (parentPackageName == null || parentPackageName.length == 0 ? ""
                    : CharOperation.toString(parentPackageName).replace('.', '/') + "/") + new String(packageName) + "/";
            for (String n : binaries.keySet()) {
                if (n.startsWith(prefix)) {
                    return true;
                }
            }
            return classpath.isPackage(parentPackageName, packageName);
        }

        @Override
        public void cleanup() {
            // the file system is reused across compiles; closed when the classpath changes
        }
    }

    private static void collect(CompilationResult result, Map<String, String> uriByFileName,
                                Map<String, UnitOutput> out) {
        String uri = uriByFileName.get(new String(result.getFileName()));
        UnitOutput unit = uri == null ? null : out.get(uri);
        if (unit == null) {
            return;
        }
        for (ClassFile cf : result.getClassFiles()) {
            unit.classes().put(new String(cf.fileName()), cf.getBytes());
        }
        CategorizedProblem[] problems = result.getAllProblems();
        if (problems != null) {
            for (CategorizedProblem p : problems) {
                unit.problems().add(new CompileProblem(p.isError(), p.getSourceLineNumber(), p.getSourceStart(),
                        p.getSourceEnd() + 1, p.getMessage()));
            }
        }
    }
}
