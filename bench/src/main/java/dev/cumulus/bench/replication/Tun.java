package dev.cumulus.bench.replication;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A Linux TUN device opened by this process: {@code open("/dev/net/tun")} and {@code ioctl(TUNSETIFF,
 * IFF_TUN | IFF_NO_PI)} attach it to an interface (created by {@code ip tuntap add}, or made here if missing); each
 * {@link #read} then returns one IP packet the kernel routed out of the interface, and each {@link #write} hands one
 * IP packet to the kernel as if it arrived on the interface. All through the C library with the FFM API (as
 * {@code Cpus} and {@code Doorbells} in the runtime), x86_64 and aarch64 Linux only.
 *
 * <p>Threads: {@link #poll} and {@link #read} belong to one thread (the reader), {@link #write} to one other (the
 * writer); each side has its own scratch memory for the {@code errno} the C library leaves.
 */
final class Tun implements AutoCloseable {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final Linker.Option ERRNO_OPTION = Linker.Option.captureCallState("errno");
    private static final MethodHandle OPEN = libc("open", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.ADDRESS, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle IOCTL = libc("ioctl", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT, ValueLayout.JAVA_LONG, ValueLayout.ADDRESS), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle READ = libc("read", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle WRITE = libc("write", FunctionDescriptor.of(ValueLayout.JAVA_LONG,
        ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle POLL = libc("poll", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
    private static final MethodHandle CLOSE = libc("close", FunctionDescriptor.of(ValueLayout.JAVA_INT,
        ValueLayout.JAVA_INT));
    private static final MethodHandle STRERROR = libc("strerror", FunctionDescriptor.of(ValueLayout.ADDRESS,
        ValueLayout.JAVA_INT));

    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    /** {@code _IOW('T', 202, int)} from linux/if_tun.h. */
    private static final long TUNSETIFF = 0x400454caL;
    private static final short IFF_TUN = 0x0001;
    private static final short IFF_NO_PI = 0x1000;
    private static final int IFNAMSIZ = 16;
    /** {@code sizeof(struct ifreq)} on 64-bit Linux: the name, then a 24-byte union whose first member is the flags. */
    private static final int IFREQ_SIZE = 40;
    private static final short POLLIN = 0x1;
    private static final short POLLERR = 0x8;
    private static final short POLLHUP = 0x10;
    private static final short POLLNVAL = 0x20;
    private static final int EINTR = 4;

    private final int fd;
    private final String name;
    /** Freed with this object: the reader and writer may still touch it while the process exits. */
    private final Arena arena = Arena.ofAuto();
    /** {@code struct pollfd {int fd; short events; short revents;}}: the reader's. */
    private final MemorySegment pollFd = arena.allocate(8, 4);
    private final MemorySegment readErrno = arena.allocate(CALL_STATE);
    private final MemorySegment writeErrno = arena.allocate(CALL_STATE);

    private Tun(int fd, String name) {
        this.fd = fd;
        this.name = name;
        pollFd.set(ValueLayout.JAVA_INT, 0, fd);
        pollFd.set(ValueLayout.JAVA_SHORT, 4, POLLIN);
    }

    private static MethodHandle libc(String function, FunctionDescriptor signature, Linker.Option... options) {
        Linker.Option[] all = Arrays.copyOf(options, options.length + 1);
        all[options.length] = ERRNO_OPTION;
        return LINKER.downcallHandle(LINKER.defaultLookup().find(function).orElseThrow(
            () -> new IllegalStateException("the C library has no " + function + "()")), signature, all);
    }

    /**
     * Opens {@code /dev/net/tun} and attaches to interface {@code name} as a TUN device without packet information
     * (every read and write is one bare IP packet).
     *
     * @throws IllegalStateException with the C library's error (e.g. no {@code /dev/net/tun}, not root, the name is
     *                               a device of another kind)
     */
    static Tun attach(String name) {
        byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        if (bytes.length == 0 || bytes.length >= IFNAMSIZ) {
            throw new IllegalArgumentException("TUN interface name '" + name + "': 1.." + (IFNAMSIZ - 1) + " bytes");
        }
        try (Arena call = Arena.ofConfined()) {
            MemorySegment errno = call.allocate(CALL_STATE);
            int fd = (int) OPEN.invokeExact(errno, call.allocateFrom("/dev/net/tun"), O_RDWR | O_CLOEXEC, 0);
            if (fd < 0) {
                throw new IllegalStateException("cannot open /dev/net/tun: " + error(errno));
            }
            MemorySegment ifr = call.allocate(IFREQ_SIZE, 8);
            MemorySegment.copy(bytes, 0, ifr, ValueLayout.JAVA_BYTE, 0, bytes.length);
            ifr.set(ValueLayout.JAVA_SHORT, IFNAMSIZ, (short) (IFF_TUN | IFF_NO_PI));
            if ((int) IOCTL.invokeExact(errno, fd, TUNSETIFF, ifr) < 0) {
                String why = error(errno);
                int ignored = (int) CLOSE.invokeExact(errno, fd);
                throw new IllegalStateException("ioctl(TUNSETIFF, " + name + ", IFF_TUN|IFF_NO_PI) failed: " + why);
            }
            return new Tun(fd, name);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("cannot call the C library: " + t, t);
        }
    }

    String name() {
        return name;
    }

    /**
     * Reader: waits up to {@code timeoutMs} for a packet. True when one can be read, false on time-out.
     *
     * @throws IllegalStateException when the device reports an error or was closed under us
     */
    boolean poll(int timeoutMs) {
        while (true) {
            int n;
            try {
                n = (int) POLL.invokeExact(readErrno, pollFd, 1L, timeoutMs);
            } catch (Throwable t) {
                throw new IllegalStateException("poll: " + t, t);
            }
            if (n < 0 && errno(readErrno) == EINTR) {
                continue;
            }
            if (n < 0) {
                throw new IllegalStateException("poll on " + name + ": " + error(readErrno));
            }
            short revents = pollFd.get(ValueLayout.JAVA_SHORT, 6);
            if ((revents & (POLLERR | POLLHUP | POLLNVAL)) != 0) {
                throw new IllegalStateException(name + " reported poll events 0x" + Integer.toHexString(revents));
            }
            return n > 0;
        }
    }

    /** Reader: one packet into {@code buffer}; returns its length (at most the buffer's size; more is cut off). */
    int read(MemorySegment buffer) {
        while (true) {
            long n;
            try {
                n = (long) READ.invokeExact(readErrno, fd, buffer, buffer.byteSize());
            } catch (Throwable t) {
                throw new IllegalStateException("read: " + t, t);
            }
            if (n >= 0) {
                return (int) n;
            }
            if (errno(readErrno) != EINTR) {
                throw new IllegalStateException("read from " + name + ": " + error(readErrno));
            }
        }
    }

    /** Writer: hands {@code length} bytes of {@code packet} to the kernel; false when it refused them. */
    boolean write(MemorySegment packet, int length) {
        while (true) {
            long n;
            try {
                n = (long) WRITE.invokeExact(writeErrno, fd, packet, (long) length);
            } catch (Throwable t) {
                throw new IllegalStateException("write: " + t, t);
            }
            if (n >= 0) {
                return n == length;
            }
            if (errno(writeErrno) != EINTR) {
                return false;
            }
        }
    }

    private static int errno(MemorySegment state) {
        return (int) ERRNO.get(state, 0L);
    }

    private static String error(MemorySegment state) {
        int e = errno(state);
        try {
            MemorySegment s = (MemorySegment) STRERROR.invokeExact(state, e);
            return s.reinterpret(256).getString(0) + " (errno " + e + ")";
        } catch (Throwable t) {
            return "errno " + e;
        }
    }

    /** Detaches from the interface (a persistent one stays, a non-persistent one goes). */
    @Override
    public void close() {
        try (Arena call = Arena.ofConfined()) {
            int ignored = (int) CLOSE.invokeExact(call.allocate(CALL_STATE), fd);
        } catch (Throwable t) {
            // the process is about to exit anyway
        }
    }
}
