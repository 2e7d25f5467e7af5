package dev.cumulus.cli.launch;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks, before anything starts, that the program's main class exists on the nodes' classpath and has a
 * {@code public static void main(String[])}. Loads the class without initializing it (no static initializer of the
 * user's runs in the launcher), in a throw-away class loader over exactly the classpath the nodes get.
 */
public final class MainClassCheck {
    private MainClassCheck() {
    }

    /**
     * @param classpath     runtime entries followed by the user's entries
     * @param userClasspath the user's classpath as given, for messages
     */
    public static void check(String mainClass, List<Path> classpath, String userClasspath) {
        List<URL> urls = new ArrayList<>();
        for (Path p : classpath) {
            try {
                urls.add(p.toUri().toURL());
            } catch (MalformedURLException e) {
                throw new LaunchException("classpath entry " + p + " is not a valid location: " + e.getMessage());
            }
        }
        try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader())) {
            Class<?> c;
            try {
                c = Class.forName(mainClass, false, loader);
            } catch (ClassNotFoundException e) {
                throw new LaunchException("no class " + mainClass + " on the classpath " + userClasspath);
            } catch (LinkageError e) {
                throw new LaunchException("class " + mainClass + " on the classpath " + userClasspath
                    + " cannot be loaded: " + e);
            }
            Method main;
            try {
                main = c.getMethod("main", String[].class);
            } catch (NoSuchMethodException e) {
                throw new LaunchException(mainClass + " has no main method (public static void main(String[] args))");
            } catch (LinkageError e) {
                throw new LaunchException(mainClass + "'s methods refer to a class missing from the classpath "
                    + userClasspath + ": " + e);
            }
            if (!Modifier.isStatic(main.getModifiers()) || main.getReturnType() != void.class) {
                throw new LaunchException(mainClass + " has no main method (public static void main(String[] args)); "
                    + "its main is not static void");
            }
        } catch (IOException e) {
            // closing the throw-away loader failed; nothing to report
        }
    }
}
