package dev.cumulus.internal.transport;

import dev.cumulus.CumulusException;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.IoUtil;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;

import dev.cumulus.internal.auth.OwnerOnly;

import java.io.File;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * An embedded Aeron media driver that the nodes of one host share. The launcher ({@code cumulus run}) hosts one for
 * its local nodes; {@code LocalCluster} hosts one for its in-JVM nodes. One shared-mode driver thread: with IPC between
 * co-located nodes the driver is off the data path (publishers write straight into the subscriber's log), so it parks
 * between duty cycles ({@link #IPC_PARK_NS}); with UDP it moves the bytes and backs off from spinning to parking.
 *
 * <p>Invariant: the driver directory is deleted on close, and at start if a stale one exists. It is owner-only: made
 * 0700 before the driver starts (its log buffers hold every IPC message, so on one host the operating system's user
 * is the boundary between runs), and what the driver made in it by the time it started (its CnC file, its
 * {@code publications} and {@code images} directories) is made 0700/0600 at once; log buffers it adds later sit in
 * those directories, which no other user can enter.
 *
 * <p>What arrives over UDP is bounded before Aeron allocates for it: a setup frame declaring a term length above what
 * Cumulus streams use is dropped ({@link BoundedSetupEndpoint}). The driver's errors are told distinct and
 * rate-limited ({@link TransportErrors}), so a flood of bad datagrams costs a counter, not a line each.
 */
public final class DriverHost implements AutoCloseable {
    /**
     * With IPC only, the driver thread parks this long after each duty cycle that found nothing to do, and never spins
     * or yields. Its work is then beside the data path: moving a publication's limit on once its subscribers consumed
     * an eighth of its window, zeroing what they consumed, client commands, timers. Spinning and then yielding after
     * each piece of that work, as a UDP driver does, kept one more runnable thread on a small host's cores exactly
     * while nodes stream the most, in slices of a few µs that alternate with a polling caller's. A publication's window
     * (half its term: 4 MiB for data, 128 KiB for control) is far more than a node writes in one park.
     */
    static final long IPC_PARK_NS = TimeUnit.MICROSECONDS.toNanos(200);
    private final MediaDriver driver;
    private final String directory;

    private DriverHost(MediaDriver driver, String directory) {
        this.driver = driver;
        this.directory = directory;
    }

    /**
     * Starts a driver in {@code directory} (use a fresh path per run, e.g. {@code /dev/shm/cumulus-RUNID}).
     *
     * @throws CumulusException when the driver cannot start, e.g. the directory is not writable
     */
    /** Where a driver named {@code name} goes: /dev/shm when present (memory-backed), else the temp directory. */
    public static String defaultDirectory(String name) {
        File shm = new File("/dev/shm");
        String base = shm.isDirectory() && shm.canWrite() ? shm.getPath() : System.getProperty("java.io.tmpdir");
        return base + File.separator + "cumulus-" + name;
    }

    public static DriverHost start(String directory) {
        return start(directory, false);
    }

    /**
     * {@link #start(String)}; with {@code ipcOnly} (every client on this host talks IPC, so the driver is off the data
     * path) its thread runs under {@code SCHED_BATCH} ({@link Cpus#batchPolicy}): its wake-ups then wait for a busy
     * core's slice instead of preempting a node's polling thread, and it parks rather than spins
     * ({@link #IPC_PARK_NS}). With UDP the driver moves the bytes and keeps its policy and back-off.
     */
    public static DriverHost start(String directory, boolean ipcOnly) {
        return start(directory, ipcOnly, System.err::println);
    }

    /** {@link #start(String, boolean)} with the driver's error lines going to {@code errorOutput}. */
    static DriverHost start(String directory, boolean ipcOnly, Consumer<String> errorOutput) {
        TransportErrors errors = new TransportErrors("cumulus: media driver: ", SystemNanoClock.INSTANCE,
            TransportErrors.DEFAULT_INTERVAL_NS, errorOutput);
        MediaDriver.Context ctx = new MediaDriver.Context()
            .sharedThreadFactory(ipcOnly ? r -> new Thread(() -> {
                Cpus.batchPolicy();
                r.run();
            }) : Thread::new)
            .aeronDirectoryName(directory)
            .dirDeleteOnStart(false) // made fresh and owner-only below
            .dirDeleteOnShutdown(true)
            .threadingMode(ThreadingMode.SHARED)
            .asyncExecutorEnabled(!ipcOnly) // its thread resolves UDP endpoint names; idle, it woke ~1,000 times a second
            .sharedIdleStrategy(ipcOnly ? new SleepingIdleStrategy(IPC_PARK_NS)
                : new BackoffIdleStrategy(10, 10, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(200)))
            .termBufferSparseFile(true)
            .spiesSimulateConnection(false)
            .warnIfDirectoryExists(false)
            .printConfigurationOnStart(false)
            // Generous: on an oversubscribed box a node can be starved for seconds; our own heartbeats detect dead
            // nodes, this only bounds how long the driver keeps a silent client's resources.
            .clientLivenessTimeoutNs(TimeUnit.SECONDS.toNanos(20))
            .publicationUnblockTimeoutNs(TimeUnit.SECONDS.toNanos(40))
            .timerIntervalNs(TimeUnit.MILLISECONDS.toNanos(1))
            .receiveChannelEndpointSupplier(
                BoundedSetupEndpoint.supplier(TransportContext.DEFAULT_DATA_TERM_LENGTH, errors))
            .errorHandler(errors::report);
        try {
            IoUtil.delete(new File(directory), true); // a stale one
            OwnerOnly.createDirectory(Path.of(directory));
            MediaDriver driver = MediaDriver.launchEmbedded(ctx);
            try {
                OwnerOnly.restrictTree(Path.of(directory));
            } catch (RuntimeException e) {
                driver.close();
                throw e;
            }
            return new DriverHost(driver, directory);
        } catch (RuntimeException e) {
            IoUtil.delete(new File(directory), true);
            throw new CumulusException("could not start the Aeron media driver in " + directory + ": " + e.getMessage()
                + ". Check that the directory's file system (usually /dev/shm) is writable and has free space.", e);
        }
    }

    /**
     * Aeron setup frames the drivers of this JVM dropped for declaring a term length beyond what Cumulus streams use
     * ({@link BoundedSetupEndpoint}): nothing was allocated for them. Any thread.
     */
    public static long droppedSetupFrames() {
        return BoundedSetupEndpoint.dropped();
    }

    /** The directory clients pass as {@code aeronDirectoryName}. */
    public String directory() {
        return directory;
    }

    @Override
    public void close() {
        try {
            driver.close();
        } finally {
            IoUtil.delete(new File(directory), true);
        }
    }
}
