package dev.cumulus.cli;

import dev.cumulus.cli.launch.RuntimeClasspath;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code cumulus classpath}: what a program needs on its classpath to compile against Cumulus. */
@Command(name = "classpath",
    mixinStandardHelpOptions = true,
    description = {
        "Print the classpath a program needs to compile against Cumulus.",
        "One line of absolute paths, joined with the platform's path separator. Compile with a JDK 25 (its javac; an "
            + "older one says 'release version 25 not supported'), e.g. "
            + "$JAVA_HOME/bin/javac -cp \"$(./cumulus classpath)\" -d out Main.java. 'cumulus run' adds this classpath "
            + "to every node by itself."})
final class ClasspathCommand implements Callable<Integer> {
    @ParentCommand
    CumulusCli cli;

    @Override
    public Integer call() {
        cli.out().println(RuntimeClasspath.asString());
        return 0;
    }
}
