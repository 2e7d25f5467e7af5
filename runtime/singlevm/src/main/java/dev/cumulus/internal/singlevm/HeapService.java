package dev.cumulus.internal.singlevm;

import dev.cumulus.internal.rpc.Brief;
import dev.cumulus.internal.rpc.DefersReply;

/**
 * What one node's shared heap offers the others over RPC (system object {@code NodeServices.SINGLE_VM_ID}): the
 * home side of docs/design/SINGLEVM.md for the objects this node created, and, on every node, the grants of monitors
 * its threads wait for. Every method is {@link Brief}: it runs a step of the protocol and never blocks (a monitor
 * that is not free is granted later by a {@link #granted} call to the waiter's node). Threads are named by their
 * node and their thread id there. Public only because RPC proxies need it; not user API.
 */
public interface HeapService {
    /** Block {@code block} (of {@code blockSlots} slots) of object {@code id} homed here, with its length and finals. */
    @Brief
    Block fetch(long id, int block, int blockSlots);

    /**
     * Writes dirty slots back to their home, this node: {@code updates} is a run of {@code id, count, (slot, value)
     * x count}. Returns once they are stored; the reply is the acknowledgement the releasing thread waits for.
     */
    @Brief
    void writeBack(long[] updates);

    /** Asks for the monitor of object {@code id}: true if granted now, else a {@link #granted} call follows. */
    @Brief
    boolean monitorEnter(long id, int node, long thread);

    /** Releases the monitor, which the caller holds, and grants it to the next thread in its entry queue. */
    @Brief
    void monitorExit(long id, int node, long thread);

    /**
     * Releases the monitor the caller holds and puts the caller in its wait set; once notified (or its wait cancelled)
     * it queues for the monitor again, and the caller hears of the re-acquisition by a {@link #granted} call.
     */
    @Brief
    void monitorWait(long id, int node, long thread);

    /**
     * Ends a wait early (timeout, interrupt): a caller still in the wait set moves to the entry queue. True if it was
     * still waiting, false if a notify had moved it already. Either way a {@link #granted} call follows.
     */
    @Brief
    boolean cancelWait(long id, int node, long thread);

    /** Moves the first waiter (or all, {@code all}) of the monitor, which the caller holds, to its entry queue. */
    @Brief
    void monitorNotify(long id, int node, long thread, boolean all);

    /** On the waiter's node: thread {@code thread} holds the monitor of {@code id} now. */
    @Brief
    void granted(long id, long thread);

    /** The value of volatile slot {@code slot} of object {@code id}, read at its home. */
    @Brief
    long getVolatile(long id, int slot);

    /** Writes volatile slot {@code slot} of object {@code id} at its home; returns once it is stored. */
    @Brief
    void putVolatile(long id, int slot, long value);

    /** On node 0: the object holding the static fields of {@code className} ({@code slots} of them), made once. */
    @Brief
    long statics(String className, int slots);

    /** The current fields (or elements) of the program object {@code id} homed here (the woven form's fetch). */
    @Brief
    ObjectImage fetchObject(long id);

    /** Elements {@code from} to {@code from + count - 1} of the program array {@code id} homed here (one block). */
    @Brief
    ObjectImage fetchElements(long id, int from, int count);

    /** The current static fields of program class {@code className} (node 0: their home; initialises the class). */
    @Brief
    ObjectImage fetchStatics(String className);

    /**
     * On node 0: initialises program class {@code className} if no thread has (its static initializer runs here),
     * sends every write of this node's to objects homed elsewhere, the initializer's among them, to their homes, then
     * returns the class's statics as {@link #fetchStatics} does: what another node asks at its first use of a class
     * with a static initializer, after which it acquires. The initializer runs on a thread of its own, named
     * {@code threadName} (the name of the thread whose use of the class asks: on one JVM that thread runs the
     * initializer, which may print {@code Thread.currentThread().getName()}), and the reply follows: it may wait for
     * another node (a monitor, a thread, an object), and the polling thread serves on meanwhile.
     */
    @Brief
    @DefersReply
    ObjectImage initialiseStatics(String className, String threadName);

    /**
     * Stores written fields in the masters homed here, then replies: {@code ids[i]} is an object id, or {@code 0} with
     * {@code images[i]} naming a class whose statics were written; only the image's present entries are stored, entry
     * {@code j} of an array's image at element {@code offsets[i] + j} (a block of a large array). The reply waits
     * when the write-back would make an object of a class a thread here is initialising ({@link Initialisers}).
     */
    @Brief
    @DefersReply
    void writeObjects(long[] ids, int[] offsets, ObjectImage[] images);

    /**
     * Runs the program's task {@code id} on a new thread named {@code name} here, a daemon thread if {@code daemon}
     * (which node 0 does not count as live); {@code creator} hears its end (also when it cannot start). Sent one-way by
     * another node.
     */
    @Brief
    void startThread(long id, String className, String name, int creator, long handle, boolean daemon);

    /** The thread {@code handle} this node started has ended (after its release). */
    @Brief
    void threadEnded(long handle);

    /**
     * The thread {@code handle} this node started ends with an uncaught exception, told in the heap's exception text
     * ({@link ThreadFailure}); sent before {@link #threadEnded}.
     */
    @Brief
    void threadFailed(long handle, String failure);

    /**
     * This node's part of a cluster thread dump ({@link ThreadDump}): its program threads and the monitors homed
     * here, in the dump's line format.
     */
    @Brief
    String threadDump();

    /** {@code Thread.interrupt()} of the program's thread {@code handle}, which runs on this node. */
    @Brief
    void interruptThread(long handle);

    /**
     * {@code Thread.getState()} of the program's thread {@code handle}, which runs (or is about to run) on this node:
     * the name of its {@code Thread.State}.
     */
    @Brief
    String threadState(long handle);

    /** Node 0: the count of the program's live threads changes by {@code delta}. */
    @Brief
    int threadStarted(int delta);

    /**
     * The program called {@code System.exit(status)} ({@code halt}: {@code Runtime.halt}) on node {@code origin}: this
     * node ends with the same status ({@link ProgramExit}). The reply is the acknowledgement the exiting node waits for.
     */
    @Brief
    void programExit(int origin, int status, boolean halt);
}
