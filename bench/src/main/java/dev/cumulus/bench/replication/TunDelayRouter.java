package dev.cumulus.bench.replication;

import dev.cumulus.bench.ChildIo;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Table 4's wide-area delay where the kernel has no {@code netem}: a userspace delay line on a TUN device, run as a
 * JVM of its own inside the hub namespace of {@link Netns} ({@code ip netns exec HUB java ... TunDelayRouter}). The
 * hub's policy routing sends every packet that arrives from a cluster's veth out of the TUN device; this program
 * reads it, holds it for the one-way delay counted from its arrival, and writes it back into the device in arrival
 * order, whence the hub's main table forwards it to the destination cluster. So every packet between two clusters
 * is delayed once, as with netem on the sender's egress.
 *
 * <p>Bounds: packets up to the MTU ({@value #MTU} bytes; longer ones are counted and dropped), read into a 64 KiB
 * buffer; at most {@code limit} packets held (one preallocated slot each; beyond, arrivals are dropped and counted,
 * as netem's {@code limit}).
 *
 * <p>Protocol: prints {@code READY <device> ...} once attached, and a {@code STATS ...} line when stopped (SIGTERM).
 * Exits when its stdin closes (the orchestrator went away, {@link ChildIo#exitWithParent()}) and when the namespace
 * file it watches disappears ({@code ip netns del}).
 *
 * <p>Threads: main reads and queues, {@code tun-delay-writer} writes due packets, ChildIo's parent watch.
 */
public final class TunDelayRouter {
    /** The interface MTU {@link Netns} sets, and the largest packet forwarded. */
    static final int MTU = 1500;
    static final String READY = "READY ";
    private static final int READ_BUFFER = 64 * 1024;
    private static final int POLL_MS = 250;
    private static final long WATCH_EVERY_NS = TimeUnit.MILLISECONDS.toNanos(500);

    /** One held packet: a slot of the preallocated pool. */
    private static final class Packet {
        final MemorySegment data;
        int length;
        long arrivalNs;

        Packet(MemorySegment data) {
            this.data = data;
        }
    }

    private final Tun tun;
    private final long delayNs;
    private final ArrayBlockingQueue<Packet> free;
    private final ArrayBlockingQueue<Packet> held;
    private final AtomicLong forwarded = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong oversize = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();

    private TunDelayRouter(Tun tun, long delayNs, int limit) {
        this.tun = tun;
        this.delayNs = delayNs;
        this.free = new ArrayBlockingQueue<>(limit);
        this.held = new ArrayBlockingQueue<>(limit);
        MemorySegment pool = Arena.ofAuto().allocate((long) limit * MTU, 16);
        for (int i = 0; i < limit; i++) {
            free.add(new Packet(pool.asSlice((long) i * MTU, MTU)));
        }
    }

    /** {@code TunDelayRouter DEVICE DELAY_US LIMIT NETNS_FILE}. */
    public static void main(String[] args) {
        ChildIo.exitWithParent();
        if (args.length != 4) {
            System.err.println("usage: TunDelayRouter DEVICE DELAY_US LIMIT NETNS_FILE");
            System.exit(2);
        }
        long delayUs = Long.parseLong(args[1]);
        int limit = Integer.parseInt(args[2]);
        if (delayUs < 0 || limit < 1) {
            System.err.println("TunDelayRouter: delay must be >= 0 µs and limit >= 1 packet");
            System.exit(2);
        }
        Path watch = Path.of(args[3]);
        Tun tun = Tun.attach(args[0]);
        TunDelayRouter r = new TunDelayRouter(tun, TimeUnit.MICROSECONDS.toNanos(delayUs), limit);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> ChildIo.line(r.stats()), "tun-delay-stats"));
        Thread.ofPlatform().daemon().name("tun-delay-writer").start(r::writeLoop);
        ChildIo.line(READY + tun.name() + " delayUs=" + delayUs + " limit=" + limit + " mtu=" + MTU);
        String why = r.readLoop(watch);
        System.err.println("TunDelayRouter: " + why + "; exiting");
        System.exit(why.startsWith("namespace") ? 0 : 1);
    }

    /** Reads and queues until the namespace file is gone or the device fails; returns why it stopped. */
    private String readLoop(Path watch) {
        long nextWatch = System.nanoTime() + WATCH_EVERY_NS;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment buffer = arena.allocate(READ_BUFFER, 16);
            while (true) {
                boolean readable = tun.poll(POLL_MS);
                long now = System.nanoTime();
                if (now - nextWatch >= 0) {
                    if (!Files.exists(watch)) {
                        return "namespace file " + watch + " is gone";
                    }
                    nextWatch = now + WATCH_EVERY_NS;
                }
                if (!readable) {
                    continue;
                }
                int n = tun.read(buffer);
                long arrival = System.nanoTime();
                if (n > MTU) {
                    oversize.incrementAndGet();
                    continue;
                }
                Packet p = free.poll();
                if (p == null) {
                    dropped.incrementAndGet();
                    continue;
                }
                MemorySegment.copy(buffer, 0, p.data, 0, n);
                p.length = n;
                p.arrivalNs = arrival;
                held.add(p); // never full: it holds at most the pool's slots
            }
        } catch (IllegalStateException e) {
            return "device error: " + e.getMessage();
        }
    }

    /** Writes each held packet back into the device once its delay from arrival has passed, in arrival order. */
    private void writeLoop() {
        try {
            while (true) {
                Packet p = held.take();
                long wait;
                while ((wait = p.arrivalNs + delayNs - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                if (tun.write(p.data, p.length)) {
                    forwarded.incrementAndGet();
                } else {
                    refused.incrementAndGet();
                }
                free.add(p);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String stats() {
        return "STATS forwarded=" + forwarded.get() + " dropped=" + dropped.get() + " oversize=" + oversize.get()
            + " refused=" + refused.get() + " held=" + held.size();
    }
}
