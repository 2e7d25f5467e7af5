package dev.cumulus.examples;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Manta Table 2 for the examples in {@code tsp}, {@code asp} and {@code leq}: the size of each version, counted as
 * non-blank lines that are not only comments (the paper counted bytes without comments and white space).
 *
 * <p>Each version is its own source files; the files every version of an app uses (the problem, its sequential
 * solver, the result and {@code main}) are counted once as "shared". Percentages are relative to the naive version,
 * once for the whole program (shared + version, as the paper measured) and once for the version's own files.
 *
 * <pre>java -cp examples/target/classes dev.cumulus.examples.CodeSize [SOURCE_ROOT]</pre>
 */
public final class CodeSize {
    private CodeSize() {
    }

    private record App(String name, String pkg, List<String> shared, List<String> naive, List<String> optimized,
                       List<String> replicated) {
    }

    private static final List<App> APPS = List.of(
        new App("TSP", "tsp", List.of("TspProblem", "Tsp"), List.of("NaiveTsp"), List.of("OptimizedTsp"),
            List.of("ReplicatedTsp", "Minimum")),
        new App("ASP", "asp", List.of("AspProblem", "Asp"), List.of("NaiveAsp"), List.of("OptimizedAsp"),
            List.of("ReplicatedAsp", "Broadcast")),
        new App("LEQ", "leq", List.of("LeqProblem", "Leq"), List.of("NaiveLeq"), List.of("OptimizedLeq"),
            List.of("ReplicatedLeq", "Gather")));

    public static void main(String[] args) throws IOException {
        Path root = args.length > 0 ? Path.of(args[0]) : Path.of("examples/src/main/java");
        if (!Files.isDirectory(root.resolve("dev/cumulus/examples"))) {
            root = Path.of("src/main/java");
        }
        System.out.println("| app | shared | naive | optimized | replicated | optimized % (whole / own) "
            + "| replicated % (whole / own) |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        int[] total = new int[4];
        for (App app : APPS) {
            Path dir = root.resolve("dev/cumulus/examples").resolve(app.pkg());
            int shared = lines(dir, app.shared());
            int naive = lines(dir, app.naive());
            int optimized = lines(dir, app.optimized());
            int replicated = lines(dir, app.replicated());
            row(app.name(), shared, naive, optimized, replicated);
            total[0] += shared;
            total[1] += naive;
            total[2] += optimized;
            total[3] += replicated;
        }
        row("all", total[0], total[1], total[2], total[3]);
    }

    private static void row(String name, int shared, int naive, int optimized, int replicated) {
        System.out.printf("| %s | %d | %d | %d | %d | %d / %d | %d / %d |%n", name, shared, naive, optimized, replicated,
            percent(shared + optimized, shared + naive), percent(optimized, naive),
            percent(shared + replicated, shared + naive), percent(replicated, naive));
    }

    private static long percent(int part, int whole) {
        return Math.round(100.0 * part / whole);
    }

    private static int lines(Path dir, List<String> classes) throws IOException {
        int count = 0;
        for (String c : classes) {
            count += codeLines(Files.readString(dir.resolve(c + ".java")));
        }
        return count;
    }

    /** Lines with something other than white space and comments on them. */
    static int codeLines(String source) {
        int lines = 0;
        boolean code = false;
        boolean block = false;
        for (int i = 0; i < source.length(); i++) {
            char c = source.charAt(i);
            char next = i + 1 < source.length() ? source.charAt(i + 1) : '\0';
            if (c == '\n') {
                lines += code ? 1 : 0;
                code = false;
            } else if (block) {
                if (c == '*' && next == '/') {
                    block = false;
                    i++;
                }
            } else if (c == '/' && next == '*') {
                block = true;
                i++;
            } else if (c == '/' && next == '/') {
                while (i + 1 < source.length() && source.charAt(i + 1) != '\n') {
                    i++;
                }
            } else if (c == '"' || c == '\'') {
                code = true;
                for (i++; i < source.length() && source.charAt(i) != c; i++) {
                    if (source.charAt(i) == '\\') {
                        i++;
                    }
                }
            } else if (!Character.isWhitespace(c)) {
                code = true;
            }
        }
        return lines + (code ? 1 : 0);
    }
}
