package dev.cumulus.analysis;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Compiles a few small source files (package {@code t}) for one test and runs one {@link RuleChecker} over a class
 * of them, on a fresh {@link ClassIndex} over exactly those classes (the runtime's API is on the compile classpath).
 */
final class CheckerFixture implements AutoCloseable {
    private final ClassSource source;
    final ClassIndex index;

    /** Each source is one compilation unit without its package line, written as {@code t/S<i>.java}. */
    CheckerFixture(Path tmp, String... sources) {
        try {
            Path src = Files.createDirectories(tmp.resolve("src/t"));
            Path out = Files.createDirectories(tmp.resolve("classes"));
            List<Path> files = new ArrayList<>();
            for (int i = 0; i < sources.length; i++) {
                files.add(Files.writeString(src.resolve("S" + i + ".java"), "package t;\n" + sources[i]));
            }
            CorpusTest.compile(files, out);
            source = ClassSource.classpath(List.of(out));
            index = new ClassIndex(source);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The findings of the checker made by {@code make} in class {@code t/<simpleName>}, one line each. */
    List<String> check(Function<ClassIndex, RuleChecker> make, String simpleName) {
        return check(make.apply(index), simpleName);
    }

    /** As {@link #check(Function, String)}, for a checker already made over {@link #index}. */
    List<String> check(RuleChecker checker, String simpleName) {
        List<Finding> out = new ArrayList<>();
        checker.check(index.info("t/" + simpleName).orElseThrow(), out);
        return out.stream().map(CheckerFixture::describe).toList();
    }

    /** {@code CUM104 counter@3: message}, plus {@code [note: related@line]} per related location. */
    static String describe(Finding f) {
        StringBuilder sb = new StringBuilder(f.ruleId()).append(' ').append(f.memberName()).append('@')
                .append(f.line()).append(": ").append(f.message());
        f.related().forEach(r -> sb.append(" [").append(r.message()).append(" @").append(r.sourceFile()).append(':')
                .append(r.line()).append(']'));
        return sb.toString();
    }

    @Override
    public void close() {
        source.close();
    }
}
