package dev.cumulus.internal.service;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A client's name space on a server never takes a class of the JDK's or Cumulus's own packages from the client, even
 * one the server lacks and a hostile client would ship: the loader refuses it with a message naming the class and the
 * client, without asking the client; the JDK's own classes of those packages come from the server.
 */
@Timeout(value = 10, unit = TimeUnit.SECONDS)
class ClientClassLoaderTest {
    /** A client that would ship anything: it answers every name with the bytes of a class file. */
    private static final class ShipsAnything implements ClassSource {
        final List<String> asked = new ArrayList<>();

        @Override
        public byte[] classBytes(String className) {
            asked.add(className);
            return new byte[] {(byte) 0xCA, (byte) 0xFE, (byte) 0xBA, (byte) 0xBE};
        }
    }

    @Test
    void classesOfTheRuntimesAndTheJdksPackagesNeverComeFromAClient() {
        ShipsAnything client = new ShipsAnything();
        ClientClassLoader loader = new ClientClassLoader(7, getClass().getClassLoader(), client);
        for (String name : List.of("java.lang.Evil", "java.util.Clash", "javax.sneaky.Thing", "jdk.internal.Evil",
            "sun.misc.Evil", "com.sun.Evil", "dev.cumulus.Sneaky", "dev.cumulus.internal.rpc.Sneaky")) {
            ClassNotFoundException e = assertThrows(ClassNotFoundException.class,
                () -> Class.forName(name, false, loader), name);
            assertTrue(e.getMessage().contains(name) && e.getMessage().contains("never comes from client 7"),
                e.getMessage());
        }
        assertTrue(client.asked.isEmpty(), "the client was never asked: " + client.asked);
        assertSame(String.class, assertLoads(loader, "java.lang.String"), "the JDK's own class");
        assertSame(ClientObjects.class, assertLoads(loader, ClientObjects.class.getName()), "the runtime's own class");
    }

    private static Class<?> assertLoads(ClassLoader loader, String name) {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(name + " did not load: " + e.getMessage(), e);
        }
    }
}
