package dev.cumulus.internal.singlevm;

import dev.cumulus.internal.launch.LaunchConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Properties;

/**
 * Node 0 of a single-VM run prints a cluster thread dump ({@link ThreadDump}) when its process gets {@code SIGUSR1},
 * which the launcher sends on {@code --timeout} and on Ctrl-\. The dump goes to standard output and then, complete, to
 * {@link #FILE} in the run directory: the launcher waits for that file before it stops the nodes.
 */
public final class DumpSignal {
    public static final String FILE = "single-vm-thread-dump.txt";

    private DumpSignal() {
    }

    /** Installs the handler; each signal makes one dump on a thread of its own. */
    static void install(ObjectSpace space, int size) {
        Properties props = System.getProperties();
        Path runDir = LaunchConfig.isPresent(props) ? LaunchConfig.fromProperties(props).runDir() : null;
        sun.misc.Signal.handle(new sun.misc.Signal("USR1"), s -> Thread.ofPlatform().name("cumulus-thread-dump")
            .daemon(true).start(() -> {
                space.bind();
                String dump = ThreadDump.gather(space, size);
                System.out.print(dump);
                System.out.flush();
                if (runDir != null) {
                    try {
                        Path tmp = Files.writeString(runDir.resolve(FILE + ".tmp"), dump);
                        Files.move(tmp, runDir.resolve(FILE), StandardCopyOption.REPLACE_EXISTING,
                            StandardCopyOption.ATOMIC_MOVE);
                    } catch (IOException e) {
                        System.err.println("cumulus: could not write the thread dump into " + runDir + ": " + e);
                    }
                }
            }));
    }
}
