package dev.cumulus.agent;

import dev.cumulus.analysis.ClassSource;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.ref.WeakReference;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * The analyzer's view of one defining class loader: class bytes through {@code loader.getResource(name + ".class")}
 * (never loading anything), the bytes the transformer was handed for classes being defined (they win, since an
 * earlier transformer may have changed them), and, for the analyzer's global facts, every class name on the
 * loader's classpath ({@link URLClassLoader} URLs and, for the application class loader, {@code java.class.path},
 * following jar manifests' {@code Class-Path}) minus libraries ({@link Names#skip}).
 *
 * <p>Also answers "is this a cloud class" from class file headers only, cached.
 */
final class LoaderClassSource implements ClassSource {
    private final WeakReference<ClassLoader> loader;
    private final Map<String, byte[]> defined = new ConcurrentHashMap<>();
    private final Map<String, Boolean> cloud = new HashMap<>();

    LoaderClassSource(ClassLoader loader) {
        this.loader = new WeakReference<>(loader);
    }

    /** Remembers the bytes of a class being defined, so analysis sees exactly what is being loaded. */
    void defining(String internalName, byte[] bytes) {
        defined.putIfAbsent(internalName, bytes);
    }

    @Override
    public Optional<byte[]> classBytes(String internalName) {
        byte[] b = defined.get(internalName);
        if (b != null) {
            return Optional.of(b);
        }
        ClassLoader l = loader.get();
        try (InputStream in = l == null ? ClassLoader.getSystemResourceAsStream(internalName + ".class")
                : l.getResourceAsStream(internalName + ".class")) {
            return in == null ? Optional.empty() : Optional.of(in.readAllBytes());
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    @Override
    public Stream<String> allClassNames() {
        List<Path> entries = classpath(loader.get());
        Set<String> names = new LinkedHashSet<>(defined.keySet());
        try (ClassSource cp = ClassSource.classpath(entries)) {
            cp.allClassNames().filter(n -> !Names.skip(n)).forEach(names::add);
        }
        return names.stream();
    }

    /** True if the class (internal name) implements {@code Cloud.Root} or {@code Cloud.Node}, directly or not. */
    synchronized boolean isCloud(String internalName) {
        if (internalName.equals(Names.ROOT) || internalName.equals(Names.NODE)) {
            return true;
        }
        if (internalName.startsWith("java/")) {
            return false;
        }
        Boolean have = cloud.get(internalName);
        if (have != null) {
            return have;
        }
        cloud.put(internalName, false); // cycle guard for broken hierarchies
        boolean result = classBytes(internalName).map(this::supertypesAreCloud).orElse(false);
        cloud.put(internalName, result);
        return result;
    }

    /**
     * True if the class in {@code bytes} is not a cloud class but its constant pool names one (a cloud field it may
     * read or write, CUM106; a cloud class it may publish, CUM102) or {@code dev/cumulus/Cluster}: the classes in
     * which the checker can report an error besides cloud classes, so the agent analyses them too.
     */
    synchronized boolean mentionsCloud(byte[] bytes) {
        ClassModel cm;
        try {
            cm = ClassFile.of().parse(bytes);
        } catch (IllegalArgumentException e) {
            return false;
        }
        for (var pe : cm.constantPool()) {
            if (pe instanceof ClassEntry ce) {
                String n = ce.asInternalName();
                if (n.equals(Names.CLUSTER) || !n.startsWith("[") && !Names.skip(n) && isCloud(n)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** True if the class in {@code bytes} has a cloud supertype. */
    synchronized boolean supertypesAreCloud(byte[] bytes) {
        ClassModel cm;
        try {
            cm = ClassFile.of().parse(bytes);
        } catch (IllegalArgumentException e) {
            return false;
        }
        for (ClassEntry i : cm.interfaces()) {
            if (isCloud(i.asInternalName())) {
                return true;
            }
        }
        return cm.superclass().map(s -> isCloud(s.asInternalName())).orElse(false);
    }

    /** The directories and jars a loader (and its parents) loads from, as far as they can be told. */
    static List<Path> classpath(ClassLoader l) {
        Set<Path> out = new LinkedHashSet<>();
        ClassLoader system = ClassLoader.getSystemClassLoader();
        for (ClassLoader c = l; c != null; c = c.getParent()) {
            if (c instanceof URLClassLoader u) {
                for (URL url : u.getURLs()) {
                    if ("file".equals(url.getProtocol())) {
                        try {
                            out.add(Path.of(url.toURI()));
                        } catch (URISyntaxException | IllegalArgumentException e) {
                            // not a plain file URL; its classes are still found through getResource
                        }
                    }
                }
            }
            if (c == system) {
                for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
                    if (!e.isEmpty()) {
                        out.add(Path.of(e));
                    }
                }
            }
        }
        List<Path> result = new ArrayList<>();
        for (Path p : out) {
            addWithManifestClassPath(p, result, 0);
        }
        return result;
    }

    private static void addWithManifestClassPath(Path p, List<Path> result, int depth) {
        Path abs = p.toAbsolutePath().normalize();
        if (result.contains(abs)) {
            return;
        }
        result.add(abs);
        if (depth > 2 || !Files.isRegularFile(abs) || !abs.toString().endsWith(".jar")) {
            return;
        }
        try (JarFile jar = new JarFile(abs.toFile())) {
            Manifest m = jar.getManifest();
            String cp = m == null ? null : m.getMainAttributes().getValue("Class-Path");
            if (cp == null) {
                return;
            }
            for (String ref : cp.trim().split("\\s+")) {
                if (ref.isEmpty()) {
                    continue;
                }
                try {
                    URI u = abs.getParent().toUri().resolve(ref);
                    if ("file".equals(u.getScheme())) {
                        addWithManifestClassPath(Path.of(u), result, depth + 1);
                    }
                } catch (IllegalArgumentException e) {
                    // a malformed Class-Path entry; the JVM ignores it too
                }
            }
        } catch (IOException e) {
            // unreadable jar: ClassSource.classpath reports it when it opens it
        }
    }
}
