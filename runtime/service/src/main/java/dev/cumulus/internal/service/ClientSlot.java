package dev.cumulus.internal.service;

import dev.cumulus.CumulusException;
import dev.cumulus.internal.auth.OwnerOnly;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A client's slot in a standing cluster on this host: slot {@code k} (client id {@code servers + k}) is held by an
 * exclusive lock on {@code <cluster dir>/clients/slot-k.lock} for as long as the client lives; the OS releases it
 * when the process ends, however it ends, so a dead client's slot is free again. The file also keeps where the next
 * holder's frame counters start ({@link #reserveCounters}).
 */
final class ClientSlot implements AutoCloseable {
    private final int slot;
    private final FileChannel channel;
    private final FileLock lock;

    private ClientSlot(int slot, FileChannel channel, FileLock lock) {
        this.slot = slot;
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the first free of {@code slots} slots.
     *
     * @throws CumulusException when all are taken
     */
    static ClientSlot take(Path clusterDir, int slots, String cluster) {
        Path dir = OwnerOnly.createDirectory(clusterDir.resolve("clients"));
        for (int k = 0; k < slots; k++) {
            FileChannel ch = null;
            try {
                ch = FileChannel.open(dir.resolve("slot-" + k + ".lock"), java.util.Set.of(StandardOpenOption.CREATE,
                    StandardOpenOption.READ, StandardOpenOption.WRITE), OwnerOnly.fileAttributes());
                FileLock lock = ch.tryLock();
                if (lock != null) {
                    return new ClientSlot(k, ch, lock);
                }
                ch.close();
            } catch (OverlappingFileLockException e) {
                close(ch); // this JVM holds it: another client of this process
            } catch (IOException e) {
                close(ch);
                throw new CumulusException("cannot take a client slot of cluster " + cluster + " in " + dir + ": "
                    + e.getMessage(), e);
            }
        }
        throw new CumulusException("cluster " + cluster + " has " + slots + " clients attached already, the most it "
            + "admits at once; wait for one to end");
    }

    private static void close(FileChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException ignored) {
                // nothing held
            }
        }
    }

    int slot() {
        return slot;
    }

    /** Frames one holder of a slot may send each server: its counters' block ({@link #reserveCounters}). */
    static final long COUNTERS_PER_HOLDER = 1L << 32;

    /**
     * Reserves this holder's block of frame counters (over UDP the servers take a client id's frames only with
     * counters above the last they took from it): returns the counter before the block's first, and notes the next
     * block's start in the slot's file before any frame is sent, so no later holder reuses a counter, however this one
     * ends.
     *
     * @throws CumulusException when the file cannot be read or written
     */
    long reserveCounters() {
        try {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(Long.BYTES);
            long start = channel.read(b, 0) == Long.BYTES ? b.flip().getLong() : 0;
            channel.write(java.nio.ByteBuffer.allocate(Long.BYTES).putLong(0, start + COUNTERS_PER_HOLDER), 0);
            channel.force(false);
            return start;
        } catch (IOException e) {
            throw new CumulusException("cannot note the frame counters of client slot " + slot + ": " + e.getMessage(),
                e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
        } catch (IOException ignored) {
            // the channel's close releases it too
        }
        close(channel);
    }
}
