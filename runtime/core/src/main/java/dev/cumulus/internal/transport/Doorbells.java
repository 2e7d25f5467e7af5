package dev.cumulus.internal.transport;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One doorbell per node of a host, in a small file in the shared media driver's directory, so a node with nothing
 * to do can sleep until a message comes instead of waking every few tens of µs to look (design brief §3: "spin
 * briefly, then sleep on a doorbell the sender rings"). A node about to sleep sets its bell to {@link #SLEEPING},
 * looks for work once more, then waits on the bell with a Linux futex (through the FFM API) for at most a timeout;
 * a sender that has just written into a node's log and finds its bell {@code SLEEPING} sets it back to
 * {@code AWAKE} and wakes it. Both sides put a full fence between their write and their read, so either the sender
 * sees the sleeper's bell or the sleeper sees the sender's message: no wake-up is lost, and a stray one only costs a
 * look. Aeron IPC only (across hosts the driver moves the bytes and no bell is shared); {@link #open} returns null
 * where futexes are not available, and the node then parks in timed steps as before.
 */
final class Doorbells {
    static final int AWAKE = 0;
    static final int SLEEPING = 1;
    /** The node sleeps for a short, bounded time ({@link #nap}): a polling thread of its own may {@link #keep} it. */
    static final int NAPPING = 2;
    /** A napping node's bell taken over by a thread of its own that polls, or will poll again soon: no rings. */
    static final int KEPT = 3;
    /**
     * One cache line per node for its bell, then one per node for the CPU of a thread waiting for a message to it. A
     * bell is written only when its node goes to sleep or wakes (or a caller takes it over), so the line a sender
     * reads at every send stays in the sender's cache; a waiter's CPU lives on a line of its own.
     */
    private static final long SLOT = 64;
    /** The futex system call's number on this machine's architecture; -1 where it is not known here. */
    private static final long SYS_FUTEX = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 202;
        case "aarch64", "arm64", "riscv64" -> 98;
        default -> -1;
    };
    private static final int FUTEX_WAIT = 0;
    private static final int FUTEX_WAKE = 1;
    private static final VarHandle BELL = ValueLayout.JAVA_INT.varHandle();
    private static final MethodHandle SYSCALL = syscall();

    private final MemorySegment bells;
    /** Each node's bell as a segment of its own: the futex call's address, made once, not at every ring or sleep. */
    private final MemorySegment[] bellAddresses;
    /** A {@code struct timespec} per node, used only by that node's sleeping thread. */
    private final MemorySegment timeouts;

    private final int size;

    private Doorbells(MemorySegment bells, MemorySegment timeouts, int size) {
        this.size = size;
        this.bells = bells;
        this.bellAddresses = java.util.stream.IntStream.range(0, size).mapToObj(n -> bells.asSlice(n * SLOT, 4))
            .toArray(MemorySegment[]::new);
        this.timeouts = timeouts;
    }

    private static MethodHandle syscall() {
        if (SYS_FUTEX < 0 || !System.getProperty("os.name", "").startsWith("Linux")) {
            return null;
        }
        try {
            Linker linker = Linker.nativeLinker();
            return linker.downcallHandle(linker.defaultLookup().find("syscall").orElseThrow(),
                FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS,
                    ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS),
                Linker.Option.firstVariadicArg(1));
        } catch (RuntimeException | LinkageError e) {
            return null; // no native access here: nodes park in timed steps instead
        }
    }

    /** Maps (creating it if needed) the bells of {@code size} nodes; null when doorbells are not available. */
    static Doorbells open(Path file, int size) {
        if (SYSCALL == null) {
            return null;
        }
        // an automatic arena: the mapping lives as long as a sender may still ring (no close racing a send)
        Arena arena = Arena.ofAuto();
        try (FileChannel ch = FileChannel.open(file, java.util.Set.of(StandardOpenOption.CREATE,
            StandardOpenOption.READ, StandardOpenOption.WRITE), dev.cumulus.internal.auth.OwnerOnly.fileAttributes())) {
            MemorySegment bells = ch.map(FileChannel.MapMode.READ_WRITE, 0, 2 * SLOT * size, arena);
            return new Doorbells(bells, arena.allocate(16L * size, 8), size);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** Sender side, after writing a message for {@code node}: wakes it if it sleeps or naps (not when kept). */
    void ring(int node) {
        long at = node * SLOT;
        VarHandle.fullFence(); // the message is written before the bell is read
        int bell = (int) BELL.getVolatile(bells, at);
        if ((bell == SLEEPING || bell == NAPPING) && BELL.compareAndSet(bells, at, bell, AWAKE)) {
            futex(node, FUTEX_WAKE, Integer.MAX_VALUE, MemorySegment.NULL);
        }
    }

    /**
     * Sleeper side: announces that {@code node} is about to sleep ({@link #SLEEPING}), or to nap ({@link #NAPPING}:
     * its sleep is bounded, so a thread of its own may keep the bell); it must look for work once more before it
     * sleeps, with the same value.
     */
    void announce(int node, int sleepOrNap) {
        BELL.setRelease(bells, node * SLOT, sleepOrNap);
        VarHandle.fullFence(); // the bell is set before the last look for messages (one fence, not two)
    }

    /**
     * Sleeper side: sleeps while the bell holds what {@link #announce} set, until rung or {@code timeoutNs} passed
     * (returns at once if rung or taken over already).
     */
    void sleep(int node, int sleepOrNap, long timeoutNs) {
        waitWhile(node, sleepOrNap, timeoutNs);
    }

    /**
     * A thread that polls for a sleeping node (a caller waiting for its reply) takes the bell over: senders need not
     * wake the node while it polls (SLEEPING becomes AWAKE, NAPPING becomes KEPT; neither wakes the sleeper). It hands
     * the bell back with {@link #announce} and one more look for messages, or {@link #keep}s a napping node's.
     */
    void takeOver(int node) {
        long at = node * SLOT;
        int bell = (int) BELL.getOpaque(bells, at); // a write only when needed: senders read this line
        if (bell == SLEEPING) {
            BELL.compareAndSet(bells, at, SLEEPING, AWAKE);
        } else if (bell == NAPPING) {
            BELL.compareAndSet(bells, at, NAPPING, KEPT);
        }
    }

    /**
     * A thread that stops polling but will poll again soon keeps the bell of its napping node: true when the bell is
     * (now) {@link #KEPT}, so senders do not ring and the node's nap ends by its bound; false when the node sleeps
     * unbounded or is awake: the thread hands the bell back as usual. The compare-and-set fails when the node has
     * announced an unbounded sleep since, so a kept bell never outlasts a nap.
     */
    boolean keep(int node) {
        long at = node * SLOT;
        int bell = (int) BELL.getVolatile(bells, at);
        return bell == KEPT || bell == NAPPING && BELL.compareAndSet(bells, at, NAPPING, KEPT);
    }

    /** Futex wait: sleeps while {@code node}'s bell holds {@code value}, until woken or {@code timeoutNs} passed. */
    private void waitWhile(int node, int value, long timeoutNs) {
        MemorySegment ts = timeouts.asSlice(16L * node, 16);
        ts.set(ValueLayout.JAVA_LONG, 0, timeoutNs / 1_000_000_000L);
        ts.set(ValueLayout.JAVA_LONG, 8, timeoutNs % 1_000_000_000L);
        futex(node, FUTEX_WAIT, value, ts);
    }

    /**
     * A thread of {@code node} waits for a message, last seen on {@code cpu}: a spinning thread of this host that
     * finds itself on that CPU gives it up ({@link #waiterOn}).
     */
    void waiting(int node, int cpu) {
        BELL.setRelease(bells, waiterSlot(node), cpu + 1);
    }

    /** The waiting thread that published {@code cpu} stops waiting: clears the slot unless another one wrote it. */
    void notWaiting(int node, int cpu) {
        BELL.compareAndSet(bells, waiterSlot(node), cpu + 1, 0);
    }

    /** True when a thread of some node of this host waits for a message and last ran on {@code cpu}. */
    boolean waiterOn(int cpu) {
        if (cpu < 0) {
            return false;
        }
        int mark = cpu + 1;
        for (int n = 0; n < size; n++) {
            if ((int) BELL.getOpaque(bells, waiterSlot(n)) == mark) {
                return true;
            }
        }
        return false;
    }

    private long waiterSlot(int node) {
        return (size + node) * SLOT;
    }

    /** Wakes {@code node}'s sleeping thread whatever its bell says, leaving the bell {@code AWAKE}. */
    void wake(int node) {
        BELL.setVolatile(bells, node * SLOT, AWAKE);
        futex(node, FUTEX_WAKE, Integer.MAX_VALUE, MemorySegment.NULL);
    }

    /**
     * Sleeper side: the node is awake (again): a bell it announced becomes AWAKE (no rings); a {@link #KEPT} one stays
     * kept, so the thread keeping it is not rung either, and the node's next nap may be on it ({@link #kept}).
     */
    void awake(int node) {
        long at = node * SLOT;
        int bell = (int) BELL.getVolatile(bells, at);
        if (bell == SLEEPING || bell == NAPPING) {
            BELL.compareAndSet(bells, at, bell, AWAKE); // it fails only for a ring, a wake or a takeover: all fine
        }
    }

    /** True when {@code node}'s bell is {@link #KEPT}: its next nap may be on the bell as it is, announcing nothing. */
    boolean kept(int node) {
        return (int) BELL.getVolatile(bells, node * SLOT) == KEPT;
    }

    private void futex(int node, int op, int value, MemorySegment timeout) {
        try {
            long ignored = (long) SYSCALL.invokeExact(SYS_FUTEX, bellAddresses[node], op, value, timeout);
        } catch (Throwable e) {
            // a failed futex call only costs a timed wait or a missed early wake-up; the timeout bounds both
        }
    }
}
