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

    /**
     * Compiles the given sources (uri to text) against the classpath.
     *
     * @return one output per uri, in the order given
     */
    Map<String, UnitOutput> compile(Map<String, String> sources, List<Path> classpath) {
        List<String> cp = new ArrayList<>();
        cp.add(Path.of(System.getProperty("java.home"), "lib", "jrt-fs.jar").toString());
        for (Path p : classpath) {
            File f = p.toFile();
            if (f.exists()) {
                cp.add(f.getAbsolutePath());
            }
        }
        Map<String, UnitOutput> out = new LinkedHashMap<>();
        if (sources.isEmpty()) {
            return out;
        }
        List<ICompilationUnit> units = new ArrayList<>();
        Map<String, String> uriByFileName = new HashMap<>();
        for (Map.Entry<String, String> e : sources.entrySet()) {
            String fileName = Workspace.pathOf(e.getKey()).toString();
            uriByFileName.put(fileName, e.getKey());
            units.add(new CompilationUnit(e.getValue().toCharArray(), fileName, "UTF-8"));
            out.put(e.getKey(), new UnitOutput(new LinkedHashMap<>(), new ArrayList<>()));
        }
        FileSystem env = new FileSystem(cp.toArray(String[]::new), new String[0], "UTF-8");
        try {
            CompilerOptions co = new CompilerOptions(options);
            co.performMethodsFullRecovery = true;
            co.performStatementsRecovery = true;
            Compiler compiler = new Compiler(env, DefaultErrorHandlingPolicies.proceedWithAllProblems(), co,
                    (CompilationResult result) -> collect(result, uriByFileName, out),
                    new DefaultProblemFactory(Locale.ROOT));
            compiler.compile(units.toArray(ICompilationUnit[]::new));
        } finally {
            env.cleanup();
        }
        return out;
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
