package dev.cumulus.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.instrument.ClassFileTransformer;
import java.lang.instrument.IllegalClassFormatException;
import java.net.MalformedURLException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/** Test support: compiles the cloud sources under src/test/cloud, loads them through the transformer. */
final class TestClasses {
    static final Path SOURCES = Path.of(System.getProperty("basedir", "."), "src", "test", "cloud");

    private TestClasses() {
    }

    /** Compiles every source under src/test/cloud with -g into {@code out}. */
    static void compile(Path out) throws IOException {
        compile(SOURCES, out);
    }

    /** Compiles every source under {@code sources} with -g into {@code out}. */
    static void compile(Path sources, Path out) throws IOException {
        List<String> args = new ArrayList<>(List.of("-g", "-proc:none", "-d", out.toString(), "-classpath",
                System.getProperty("java.class.path")));
        try (Stream<Path> s = Files.walk(sources)) {
            s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(p -> args.add(p.toString()));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = javac.run(null, err, err, args.toArray(String[]::new));
        assertEquals(0, rc, "test cloud sources do not compile:\n" + err.toString(StandardCharsets.UTF_8));
    }

    /**
     * A child of the test class loader that defines the classes of one directory itself, after passing them
     * through a transformer (as the JVM would at load time). Remembers the woven bytes.
     */
    static final class WeavingLoader extends URLClassLoader {
        final Map<String, byte[]> woven = new ConcurrentHashMap<>();
        private final ClassFileTransformer transformer;

        WeavingLoader(Path dir, ClassFileTransformer transformer) throws MalformedURLException {
            super(new URL[] {dir.toUri().toURL()}, TestClasses.class.getClassLoader());
            this.transformer = transformer;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            String internal = name.replace('.', '/');
            try (InputStream in = getResourceAsStream(internal + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                byte[] original = in.readAllBytes();
                byte[] t = transformer.transform(this, internal, null, null, original);
                if (t != null) {
                    woven.put(name, t);
                }
                byte[] use = t == null ? original : t;
                return defineClass(name, use, 0, use.length);
            } catch (IOException | IllegalClassFormatException e) {
                throw new ClassNotFoundException(name, e);
            }
        }
    }

    /** A PrintStream whose text can be read back. */
    static final class Captured {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }
    }

    /**
     * An agent jar built from the agent's class directory (what ./build's jar has): the agent manifest plus the
     * classes of dev/cumulus/agent. Its dependencies come from the application classpath.
     */
    static Path agentJar(Path dir) throws IOException {
        Path classes;
        try {
            classes = Path.of(CumulusAgent.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        Path jar = dir.resolve("cumulus-agent-test.jar");
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Premain-Class", CumulusAgent.class.getName());
        a.putValue("Agent-Class", CumulusAgent.class.getName());
        a.putValue("Can-Retransform-Classes", "true");
        a.putValue("Can-Redefine-Classes", "true");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m);
             Stream<Path> files = Files.walk(classes.resolve("dev/cumulus/agent"))) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                j.putNextEntry(new JarEntry(classes.relativize(f).toString().replace(File.separatorChar, '/')));
                j.write(Files.readAllBytes(f));
                j.closeEntry();
            }
        }
        return jar;
    }
}
