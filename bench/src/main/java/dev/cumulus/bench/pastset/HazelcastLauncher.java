package dev.cumulus.bench.pastset;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;

/**
 * Main class of a Hazelcast member process. The harness ({@code ProcessSet}) gives its children the classpath the
 * runtime, Aeron and the other peers were loaded from, which need not contain Hazelcast (under {@code cumulus bench}
 * it does not). If Hazelcast is not loadable, this loads {@code HazelcastNode} and the rest of this package (child
 * first) from this class's own location and Hazelcast from {@code -Dbench.hz.jar}, everything else from the normal
 * classpath. References neither directly.
 */
public final class HazelcastLauncher {
    static final String NODE = "dev.cumulus.bench.pastset.HazelcastNode";
    /** Loaded child first: the node and the loops it shares with ours (package-private, so one runtime package). */
    private static final String PACKAGE = "dev.cumulus.bench.pastset.";

    private HazelcastLauncher() {
    }

    public static void main(String[] args) throws Throwable {
        ClassLoader app = HazelcastLauncher.class.getClassLoader();
        ClassLoader loader = app;
        try {
            Class.forName("com.hazelcast.core.Hazelcast", false, app);
        } catch (ClassNotFoundException e) {
            URL own = HazelcastLauncher.class.getProtectionDomain().getCodeSource().getLocation();
            URL jar = Path.of(System.getProperty("bench.hz.jar")).toUri().toURL();
            loader = new NodeFirst(new URL[] {own, jar}, app);
        }
        Thread.currentThread().setContextClassLoader(loader);
        Method main = Class.forName(NODE, true, loader).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /** Loads this package (but not the launcher) itself; everything else parent first. */
    private static final class NodeFirst extends URLClassLoader {
        NodeFirst(URL[] urls, ClassLoader parent) {
            super(urls, parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(PACKAGE) || name.equals(HazelcastLauncher.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    c = findClass(name);
                }
                if (resolve) {
                    resolveClass(c);
                }
                return c;
            }
        }
    }
}
