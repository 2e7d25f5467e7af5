package dev.cumulus.it;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The system properties and environment variables that the main sources of the build's modules read, found by
 * reading the sources: the names given to {@code System.getProperty}, {@code System.getenv}, {@code Boolean.getBoolean},
 * {@code Integer.getInteger} and {@code Long.getLong} (string literals and {@code static final String} constants,
 * also concatenated), every {@code "CUMULUS_*"} literal, and the classes that take all properties or the whole
 * environment at once ({@code System.getProperties()}, {@code System.getenv()}). Comments are not read.
 */
final class PropertyReads {
    private static final Pattern CALL = Pattern.compile(
        "\\b(System\\.getProperty|System\\.getenv|Boolean\\.getBoolean|Integer\\.getInteger|Long\\.getLong)\\s*\\(");
    private static final Pattern WHOLESALE = Pattern.compile("\\bSystem\\.(getProperties|getenv)\\s*\\(\\s*\\)");
    private static final Pattern CONSTANT = Pattern.compile("\\bstatic\\s+final\\s+String\\s+(\\w+)\\s*=\\s*([^;]+);");
    private static final Pattern VARIABLE_LITERAL = Pattern.compile("\"(CUMULUS_[A-Z0-9_]+)\"");

    /** A name read, or an argument that is no constant ({@code name} null), and where. */
    record Read(String name, String argument, String where) {
    }

    final List<Read> reads = new ArrayList<>();
    /** Classes (fully qualified) that read all properties or the whole environment. */
    final TreeSet<String> wholesale = new TreeSet<>();
    private final Map<String, String> constants = new HashMap<>();
    private final Map<Path, String> code = new HashMap<>();

    /** Reads every {@code src/main/java} of {@code modules}, paths relative to {@code root}. */
    static PropertyReads scan(Path root, List<String> modules) {
        PropertyReads r = new PropertyReads();
        for (String module : modules) {
            Path src = root.resolve(module).resolve("src/main/java");
            if (!Files.isDirectory(src)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(src)) {
                files.filter(f -> f.toString().endsWith(".java")).forEach(f -> r.load(src, f));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        r.code.forEach(r::find);
        return r;
    }

    private void load(Path src, Path file) {
        String text;
        try {
            text = withoutComments(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        code.put(src.relativize(file), text);
        String cls = simpleName(file);
        Matcher m = CONSTANT.matcher(text);
        while (m.find()) {
            constants.putIfAbsent(cls + "." + m.group(1), m.group(2).trim());
        }
    }

    private void find(Path file, String text) {
        String fqcn = file.toString().replace(file.getFileSystem().getSeparator(), ".").replaceAll("\\.java$", "");
        String cls = simpleName(file);
        Matcher w = WHOLESALE.matcher(text);
        while (w.find()) {
            wholesale.add(fqcn);
        }
        Matcher m = CALL.matcher(text);
        while (m.find()) {
            String arg = firstArgument(text, m.end());
            if (!arg.isEmpty()) {
                reads.add(new Read(resolve(arg, cls, 0), arg, fqcn + ":" + line(text, m.start())));
            }
        }
        Matcher v = VARIABLE_LITERAL.matcher(text);
        while (v.find()) {
            reads.add(new Read(v.group(1), v.group(), fqcn + ":" + line(text, v.start())));
        }
    }

    /** The value of a constant expression: literals and constants joined by {@code +}; null when it is none. */
    private String resolve(String expr, String cls, int depth) {
        if (depth > 8) {
            return null;
        }
        StringBuilder value = new StringBuilder();
        for (String term : terms(expr)) {
            if (term.startsWith("\"") && term.endsWith("\"") && term.length() >= 2) {
                value.append(term, 1, term.length() - 1);
            } else if (term.matches("[A-Za-z_][\\w.]*")) {
                String[] parts = term.split("\\.");
                String owner = parts.length > 1 ? parts[parts.length - 2] : cls;
                String constant = constants.get(owner + "." + parts[parts.length - 1]);
                String v = constant == null ? null : resolve(constant, owner, depth + 1);
                if (v == null) {
                    return null;
                }
                value.append(v);
            } else {
                return null;
            }
        }
        return value.toString();
    }

    /** The terms of {@code a + b + "c"}, split outside string literals. */
    private static List<String> terms(String expr) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean inString = false;
        for (int i = 0; i < expr.length(); i++) {
            char c = expr.charAt(i);
            if (inString && c == '\\') {
                cur.append(c).append(expr.charAt(++i));
                continue;
            }
            if (c == '"') {
                inString = !inString;
            }
            if (c == '+' && !inString) {
                out.add(cur.toString().trim());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString().trim());
        return out;
    }

    /** The text of a call's first argument, starting after its {@code (}. */
    private static String firstArgument(String text, int from) {
        int depth = 0;
        boolean inString = false;
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '(') {
                depth++;
            } else if (depth == 0 && (c == ')' || c == ',')) {
                return text.substring(from, i).trim();
            } else if (c == ')') {
                depth--;
            }
        }
        throw new IllegalStateException("a call without its closing parenthesis at " + from);
    }

    /** {@code source} with every comment blanked (newlines kept, so line numbers hold); strings stay. */
    static String withoutComments(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (source.startsWith("\"\"\"", i)) {
                int end = source.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
                out.append(source, i, end);
                i = end;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && source.charAt(j) != c) {
                    j += source.charAt(j) == '\\' ? 2 : 1;
                }
                int end = Math.min(n, j + 1);
                out.append(source, i, end);
                i = end;
            } else if (source.startsWith("//", i)) {
                while (i < n && source.charAt(i) != '\n') {
                    i++;
                }
            } else if (source.startsWith("/*", i)) {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                source.substring(i, end).chars().filter(ch -> ch == '\n').forEach(ch -> out.append('\n'));
                i = end;
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    private static String simpleName(Path file) {
        return file.getFileName().toString().replaceAll("\\.java$", "");
    }

    private static int line(String text, int offset) {
        return (int) text.substring(0, offset).chars().filter(c -> c == '\n').count() + 1;
    }
}
