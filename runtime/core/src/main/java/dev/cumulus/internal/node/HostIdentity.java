package dev.cumulus.internal.node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Which operating system instance and process namespace this JVM runs in, as one number: two nodes with the same
 * non-zero identity see each other's process ids, so one can ask the operating system whether the other's process
 * lives. Made from Linux's boot id and the process's pid namespace; 0 (unknown) elsewhere, or when either cannot be
 * read — then nobody watches this node's process and heartbeats alone tell.
 */
final class HostIdentity {
    private static final long CURRENT = read(Path.of("/proc/sys/kernel/random/boot_id"), Path.of("/proc/self/ns/pid"));

    private HostIdentity() {
    }

    /** This JVM's identity, or 0 when unknown. */
    static long current() {
        return CURRENT;
    }

    /** The identity made of the boot id in {@code bootId} and the namespace {@code pidNamespace} links to. */
    static long read(Path bootId, Path pidNamespace) {
        try {
            String boot = Files.readString(bootId, StandardCharsets.US_ASCII).trim();
            String namespace = Files.readSymbolicLink(pidNamespace).toString();
            if (boot.isEmpty() || namespace.isEmpty()) {
                return 0;
            }
            long h = 1125899906842597L; // a 64-bit string hash: 32-bit String.hashCode would collide too easily
            for (char c : (boot + '|' + namespace).toCharArray()) {
                h = 31 * h + c;
            }
            return h == 0 ? 1 : h;
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            return 0;
        }
    }
}
