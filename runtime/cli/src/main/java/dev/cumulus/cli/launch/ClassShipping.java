package dev.cumulus.cli.launch;

import dev.cumulus.cli.ship.ClassManifest;
import dev.cumulus.cli.ship.ClassSender;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives the other hosts of a run the program's classes and resources: makes the manifest of the user's classpath
 * ({@link ClassManifest}; class directories packed in an owner-only temporary directory, deleted afterwards) and ships
 * it to every host agent in parallel ({@link RemoteHost#ship}). The hosts' nodes then run with their cache's copies as
 * the program's classpath, so {@code -cp} names only files of the launching host.
 */
final class ClassShipping {
    private ClassShipping() {
    }

    /**
     * Ships {@code userClasspath} to every host of {@code remotes}.
     *
     * @return each host's shipment, in the order of {@code remotes}
     * @throws LaunchException naming a host that could not take the classes, or the entry that could not be packed
     */
    static Map<RemoteHost, ClassSender.Shipment> shipAll(List<RemoteHost> remotes, List<Path> userClasspath,
        PrintStream err) {
        Map<RemoteHost, ClassSender.Shipment> shipped = new LinkedHashMap<>();
        if (remotes.isEmpty()) {
            return shipped;
        }
        Path packDir;
        try {
            packDir = Files.createTempDirectory("cumulus-classes-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (IOException e) {
            throw new LaunchException("cannot create a directory to pack the program's classes in "
                + System.getProperty("java.io.tmpdir") + ": " + e.getMessage());
        }
        try {
            ClassManifest manifest;
            try {
                manifest = ClassManifest.of(userClasspath, packDir);
            } catch (IOException e) {
                throw new LaunchException("cannot prepare the program's classes for the other hosts: "
                    + e.getMessage());
            }
            Map<RemoteHost, Object> results = new LinkedHashMap<>();
            List<Thread> threads = new ArrayList<>();
            for (RemoteHost host : remotes) {
                threads.add(Thread.ofPlatform().name("cumulus-ship-" + host.name()).start(() -> {
                    Object r;
                    try {
                        r = host.ship(manifest, line -> err.println("cumulus: " + line));
                    } catch (RuntimeException e) {
                        r = e;
                    }
                    synchronized (results) {
                        results.put(host, r);
                    }
                }));
            }
            for (Thread t : threads) {
                try {
                    t.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new LaunchException("interrupted while shipping the program's classes");
                }
            }
            for (RemoteHost host : remotes) {
                Object r = results.get(host);
                if (r instanceof RuntimeException e) {
                    throw e;
                }
                shipped.put(host, (ClassSender.Shipment) r);
            }
            return shipped;
        } finally {
            DriverDirectories.deleteTree(packDir);
        }
    }
}
