package dev.cumulus.internal.cloud;

import dev.cumulus.CumulusException;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Installs the Cumulus agent into this JVM when it was not started with {@code -javaagent:cumulus-agent.jar}, so an
 * in-process cluster (tests, {@code LocalCluster}, through {@link CloudsProvider#beforeInProcessCluster}) still gets
 * woven cloud classes. The agent then retransforms the cloud classes that are already loaded. Also where the agent jar
 * is, for the launchers that pass it to {@code -javaagent:}.
 *
 * <p>Finding the agent: the system property {@value #JAR_PROPERTY}, else the jar or directory on the classpath that
 * holds {@code dev/cumulus/agent/CumulusAgent.class} (for a directory such as {@code target/classes}, a small
 * temporary jar with the agent manifest and the agent's classes is written and deleted at exit). Attaching: through
 * {@code com.sun.tools.attach} in this process if {@code -Djdk.attach.allowAttachSelf=true} was given, else through
 * a short helper JVM ({@code java -cp AGENT_JAR dev.cumulus.agent.Attacher PID AGENT_JAR}; it costs a JVM start).
 *
 * <p>This class does not depend on the agent module; it only names it.
 */
public final class AgentLoader {
    /** System property naming the agent jar; wins over the classpath search. */
    public static final String JAR_PROPERTY = "cumulus.agent.jar";
    private static final String AGENT_CLASS = "dev.cumulus.agent.CumulusAgent";
    private static final String AGENT_RESOURCE = "dev/cumulus/agent/CumulusAgent.class";
    private static final long HELPER_TIMEOUT_SECONDS = 60;

    private static volatile long lastAttachNanos = -1;
    private static volatile boolean installed;

    private AgentLoader() {
    }

    /**
     * Returns at once if the agent runs in this JVM; otherwise finds and attaches it.
     *
     * @throws CumulusException if the agent cannot be found or attached; the message says what to do
     */
    public static synchronized void ensureInstalled() {
        if (installed()) {
            return;
        }
        Path jar = agentJar();
        long t0 = System.nanoTime();
        if (selfAttachAllowed()) {
            attachInProcess(jar);
        } else {
            attachWithHelper(jar);
        }
        lastAttachNanos = System.nanoTime() - t0;
        if (!installed()) {
            throw new CumulusException("the Cumulus agent " + jar + " was loaded but did not start in this JVM "
                + "(is cumulus-runtime loaded by a class loader other than the application class loader?); "
                + howToFix(jar));
        }
    }

    /** Called by the agent when it starts (premain or agentmain). */
    public static void markInstalled() {
        installed = true;
    }

    /** True once the agent runs in this JVM, i.e. cloud classes loaded from now on are woven. */
    public static boolean installed() {
        return installed;
    }

    /** How long the last attach took (nanoseconds), {@code -1} if this JVM did not attach. */
    public static long lastAttachNanos() {
        return lastAttachNanos;
    }

    /**
     * The agent jar: the system property, else where the agent's classes are on the classpath (a class directory is
     * packed into a temporary jar). What {@code cumulus run} passes to {@code -javaagent:}.
     */
    public static Path agentJar() {
        String prop = System.getProperty(JAR_PROPERTY);
        if (prop != null && !prop.isBlank()) {
            Path p = Path.of(prop).toAbsolutePath();
            if (!Files.isRegularFile(p)) {
                throw new CumulusException("-D" + JAR_PROPERTY + "=" + prop + " is not a file; point it at "
                    + "runtime/agent/target/cumulus-agent-<version>.jar (built by ./build)");
            }
            return p;
        }
        URL url = resource();
        if (url == null) {
            throw new CumulusException("cloud classes need the Cumulus agent, and it is neither running nor on the "
                + "classpath; add cumulus-agent to the classpath, set -D" + JAR_PROPERTY + "=PATH, or start the "
                + "JVM with -javaagent:cumulus-agent.jar (cumulus run does this)");
        }
        try {
            return switch (url.getProtocol()) {
                case "jar" -> {
                    String s = url.toString();
                    yield Path.of(new URI(s.substring("jar:".length(), s.indexOf("!/"))));
                }
                case "file" -> {
                    Path cls = Path.of(url.toURI());
                    Path root = cls;
                    for (int i = 0; i < AGENT_RESOURCE.split("/").length; i++) {
                        root = root.getParent();
                    }
                    yield jarFromDirectory(root);
                }
                default -> throw new CumulusException("cannot use the Cumulus agent from " + url
                    + "; set -D" + JAR_PROPERTY + "=PATH or start the JVM with -javaagent:cumulus-agent.jar");
            };
        } catch (URISyntaxException | IOException e) {
            throw new CumulusException("cannot prepare the Cumulus agent from " + url + ": " + e.getMessage(), e);
        }
    }

    private static URL resource() {
        ClassLoader own = AgentLoader.class.getClassLoader();
        URL u = own == null ? null : own.getResource(AGENT_RESOURCE);
        return u != null ? u : ClassLoader.getSystemResource(AGENT_RESOURCE);
    }

    /** A temporary agent jar: the agent manifest plus a copy of the agent's classes (for the helper JVM). */
    static Path jarFromDirectory(Path classesDir) throws IOException {
        Path jar = Files.createTempFile("cumulus-agent-", ".jar");
        jar.toFile().deleteOnExit();
        Manifest m = new Manifest();
        Attributes a = m.getMainAttributes();
        a.put(Attributes.Name.MANIFEST_VERSION, "1.0");
        a.putValue("Premain-Class", AGENT_CLASS);
        a.putValue("Agent-Class", AGENT_CLASS);
        a.putValue("Can-Retransform-Classes", "true");
        a.putValue("Can-Redefine-Classes", "true");
        Path agentPkg = classesDir.resolve("dev/cumulus/agent");
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream j = new JarOutputStream(out, m);
             Stream<Path> files = Files.walk(agentPkg)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                j.putNextEntry(new JarEntry(classesDir.relativize(f).toString().replace(File.separatorChar, '/')));
                j.write(Files.readAllBytes(f));
                j.closeEntry();
            }
        }
        return jar;
    }

    private static boolean selfAttachAllowed() {
        String v = System.getProperty("jdk.attach.allowAttachSelf");
        return v != null && (v.isEmpty() || Boolean.parseBoolean(v));
    }

    private static void attachInProcess(Path jar) {
        try {
            Class<?> vmClass = Class.forName("com.sun.tools.attach.VirtualMachine");
            Object vm = vmClass.getMethod("attach", String.class).invoke(null, Long.toString(ProcessHandle.current().pid()));
            Method detach = vmClass.getMethod("detach");
            try {
                vmClass.getMethod("loadAgent", String.class).invoke(vm, jar.toString());
            } finally {
                detach.invoke(vm);
            }
        } catch (InvocationTargetException e) {
            throw new CumulusException("cannot attach the Cumulus agent to this JVM: " + e.getCause() + "; "
                + howToFix(jar), e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw new CumulusException("cannot attach the Cumulus agent to this JVM (module jdk.attach missing?): "
                + e + "; " + howToFix(jar), e);
        }
    }

    private static void attachWithHelper(Path jar) {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        List<String> cmd = List.of(java.toString(), "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
            "-cp", jar.toString(), "dev.cumulus.agent.Attacher", Long.toString(ProcessHandle.current().pid()),
            jar.toString());
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new CumulusException("cannot start " + java + " to attach the Cumulus agent: " + e.getMessage()
                + "; " + howToFix(jar), e);
        }
        try {
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(HELPER_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new CumulusException("attaching the Cumulus agent took longer than " + HELPER_TIMEOUT_SECONDS
                    + " s; " + howToFix(jar));
            }
            if (p.exitValue() != 0) {
                throw new CumulusException("cannot attach the Cumulus agent to this JVM (" + new String(out,
                    StandardCharsets.UTF_8).strip() + "); " + howToFix(jar));
            }
        } catch (IOException e) {
            p.destroyForcibly();
            throw new CumulusException("cannot attach the Cumulus agent: " + e.getMessage() + "; " + howToFix(jar), e);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new CumulusException("interrupted while attaching the Cumulus agent; " + howToFix(jar), e);
        }
    }

    private static String howToFix(Path jar) {
        return "start the JVM with -javaagent:" + jar + " (or run through 'cumulus run', which does)";
    }
}
