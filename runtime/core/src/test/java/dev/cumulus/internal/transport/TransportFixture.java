package dev.cumulus.internal.transport;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What the transport tests share: real Aeron media drivers, each in a fresh directory, and the node transports a test
 * made, polled by the test's own thread until what it waits for holds. {@link #close()} closes the transports, then
 * the drivers, and checks that every driver directory is gone.
 */
final class TransportFixture implements AutoCloseable {
    private static final long WAIT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final long OFFER_WAIT_NS = TimeUnit.SECONDS.toNanos(10);
    private final List<DriverHost> drivers = new ArrayList<>();
    private final List<NodeTransport> transports = new CopyOnWriteArrayList<>();
    private final Supplier<?> state;

    /** @param state what a wait that timed out reports (what the test received so far) */
    TransportFixture(Supplier<?> state) {
        this.state = state;
    }

    /** A driver for IPC and UDP in a fresh directory, its error lines on stderr. */
    DriverHost driver() {
        return driver(System.err::println);
    }

    /** A driver for IPC and UDP in a fresh directory, its error lines going to {@code errorOutput}. */
    DriverHost driver(Consumer<String> errorOutput) {
        DriverHost d = DriverHost.start(System.getProperty("java.io.tmpdir") + "/cumulus-test-" + UUID.randomUUID(),
            false, errorOutput);
        drivers.add(d);
        return d;
    }

    /** Takes {@code t} into the transports polled and closed here. */
    NodeTransport add(NodeTransport t) {
        transports.add(t);
        return t;
    }

    /** Closes {@code t} before the others. */
    void close(NodeTransport t) {
        t.close();
        transports.remove(t);
    }

    /** Polls every transport on this thread until {@code condition} holds; fails after 30 s. */
    void pollUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + WAIT_NS;
        while (!condition.getAsBoolean()) {
            int work = 0;
            for (NodeTransport t : transports) {
                work += t.poll(64);
            }
            if (work == 0) {
                Thread.onSpinWait();
            }
            assertTrue(System.nanoTime() < deadline, () -> "condition not reached in time; received " + state.get());
        }
    }

    /** Repeats {@code offer} (an Aeron offer's result) until it is taken; fails after 10 s naming {@code what}. */
    static void offerUntilTaken(LongSupplier offer, String what) {
        long deadline = System.nanoTime() + OFFER_WAIT_NS;
        while (offer.getAsLong() < 0) {
            assertTrue(System.nanoTime() < deadline, what + " took nothing");
            Thread.onSpinWait();
        }
    }

    /** A UDP port free on {@code address} now. */
    static int freePort(InetAddress address) {
        try (DatagramSocket s = new DatagramSocket(new InetSocketAddress(address, 0))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A UDP port free on the loopback address now. */
    static int freePort() {
        return freePort(InetAddress.getLoopbackAddress());
    }

    @Override
    public void close() {
        transports.forEach(NodeTransport::close);
        for (DriverHost d : drivers) {
            d.close();
            assertFalse(new File(d.directory()).exists(), "driver directory removed: " + d.directory());
        }
    }
}
