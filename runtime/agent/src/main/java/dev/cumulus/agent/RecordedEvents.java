package dev.cumulus.agent;

import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Registers the Cumulus JFR event classes when a node starts under a recording ({@code cumulus run --profile} or
 * {@code --live}, or any {@code -XX:StartFlightRecording}), before the program's code runs. JFR instruments an event
 * class with the class-file API when the class is first loaded, applies the recording's settings to its new type and
 * writes the recording's metadata again at its next flush; left to the first event, that work and the compilations it
 * brings fall into the program's first computation after joining, the very thing the profile measures. Here they
 * happen while the node starts. Each module names its event classes, one binary name a line, in the resource
 * {@value #RESOURCE}; without a recording nothing is loaded.
 */
final class RecordedEvents {
    /** Every module with JFR events lists their classes here ({@code #} starts a comment). */
    static final String RESOURCE = "META-INF/cumulus/jfr-events";

    private RecordedEvents() {
    }

    /**
     * Registers every listed event class as soon as this JVM's Flight Recorder is initialized: at once when it is, else
     * when {@code -XX:StartFlightRecording} starts it, which the JVM does after the agents' {@code premain}. A JVM
     * without a recording never gets there. Problems go to {@code err}.
     */
    static void registerWhenRecording(ClassLoader loader, PrintStream err) {
        FlightRecorder.addListener(new FlightRecorderListener() {
            @Override
            public void recorderInitialized(FlightRecorder recorder) {
                register(loader, err);
            }
        });
    }

    private static void register(ClassLoader loader, PrintStream err) {
        for (String name : listed(loader, err)) {
            try {
                FlightRecorder.register(Class.forName(name, false, loader).asSubclass(Event.class));
            } catch (ReflectiveOperationException | ClassCastException | LinkageError e) {
                err.println("cumulus-agent: cannot register the JFR event class " + name + " listed in " + RESOURCE
                    + " (" + e + "); it registers at its first event instead. Rebuild Cumulus with ./build");
            }
        }
    }

    /** The event classes every {@value #RESOURCE} on {@code loader}'s class path names, in class path order. */
    static List<String> listed(ClassLoader loader, PrintStream err) {
        Set<String> names = new LinkedHashSet<>();
        try {
            Enumeration<URL> lists = loader.getResources(RESOURCE);
            while (lists.hasMoreElements()) {
                URL list = lists.nextElement();
                try (BufferedReader in = new BufferedReader(
                        new InputStreamReader(list.openStream(), StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        String name = line.strip();
                        if (!name.isEmpty() && !name.startsWith("#")) {
                            names.add(name);
                        }
                    }
                }
            }
        } catch (IOException e) {
            err.println("cumulus-agent: cannot read the JFR event lists (" + RESOURCE + "): " + e.getMessage()
                + "; Cumulus events register at their first event instead");
        }
        return new ArrayList<>(names);
    }
}
