package dev.cumulus.internal.singlevm;

import dev.cumulus.internal.launch.ExitReport;
import dev.cumulus.internal.launch.LaunchConfig;

import jdk.jfr.FlightRecorder;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code System.exit(n)} (and {@code Runtime.exit}, {@code Runtime.halt}) in the program, on any node: the end of the
 * one JVM the program believes it runs on, so every node ends with {@code n}, quietly, as {@code java} would. The node
 * where the program calls it writes its {@link ExitReport} for the launcher (which then returns {@code n} and does not
 * call the run failed), tells every other node and waits a short while for their acknowledgement, then exits. A node
 * that hears of it exits with the same status from a thread of its own. From the moment a node knows the program is
 * exiting, what the other nodes' leaving breaks there (a barrier, a thread blocked on a monitor homed on a node that
 * left, {@code main}'s wait for the program's threads) stays silent: on one JVM those threads would simply stop.
 *
 * <p>Threads: the program thread that calls {@code exit}; the polling thread (a peer's announcement, brief). The
 * first exit a node learns of wins there; a later {@code exit} call on that node blocks, as a second
 * {@code System.exit} does on one JVM.
 */
final class ProgramExit {
    /** How long the exiting node waits for the other nodes to acknowledge before it exits anyway. */
    private static final long ACK_WAIT_MS = 2_000;

    private static final AtomicBoolean UNDERWAY = new AtomicBoolean();

    private ProgramExit() {
    }

    /**
     * The program calls {@code System.exit(status)} ({@code halt}: {@code Runtime.halt}) on {@code space}'s node; never
     * returns. An {@code exit} while another is under way on this node (this node's, still telling the others, or one
     * another node announced) blocks, as a second {@code System.exit} does on one JVM: ending the node now would leave
     * nodes not yet told to see it leave; a {@code halt} halts at once, as on one JVM.
     */
    static void exit(ObjectSpace space, int status, boolean halt) {
        if (LimitStop.launchedNode()) {
            if (!UNDERWAY.compareAndSet(false, true)) {
                if (!halt) {
                    awaitEnd();
                }
            } else {
                try {
                    int self = space.nodeId();
                    report(self, self, status);
                    release(space.heap());
                    tellPeers(space.heap(), self, status, halt);
                } finally {
                    end(status, halt);
                }
            }
        }
        end(status, halt);
    }

    /** Node {@code origin} announced that the program exits with {@code status} ({@code heap}'s polling thread; brief). */
    static void onPeerExit(SharedHeap heap, int origin, int status, boolean halt) {
        if (UNDERWAY.compareAndSet(false, true)) {
            Thread.ofPlatform().name("cumulus-program-exit").start(() -> {
                report(heap.nodeId(), origin, status);
                try {
                    heap.acquire(); // the shutdown hooks here read nothing older than the exiting thread's release
                } catch (RuntimeException e) {
                    // a home already gone (the notice came late): the hooks read what this node holds
                }
                end(status, halt);
            });
        }
    }

    /**
     * The program's {@code main} threw and every thread the program started has ended (node 0, {@code status} 1): the
     * program ends with that status, as {@code java} ends, which the launcher learns from this node's exit report as
     * from an {@code exit(status)}, not as a node that failed (it would repeat the node's last output under a failure
     * message). Nothing is told to the other nodes: they end at the run's last barrier with node 0.
     */
    static void mainThrew(int self, int status) {
        if (LimitStop.launchedNode() && !LimitStop.stopping() && !underway()) {
            report(self, self, status);
        }
    }

    /** True once this node knows the program is exiting: whatever breaks from now on is not the program's failure. */
    static boolean underway() {
        return UNDERWAY.get();
    }

    /**
     * As {@link #underway()}, and also when the run directory holds another node's exit report whose notice has not
     * reached this node yet (a node told before this one may end, and be seen leaving, first): this node then begins
     * its exit with that status at once. It reads the run directory, so it is asked only where something already broke.
     */
    static boolean exitKnown() {
        if (underway()) {
            return true;
        }
        ObjectSpace space = ObjectSpace.currentOrNull();
        if (!LimitStop.launchedNode() || space == null) {
            return false;
        }
        LaunchConfig config = LaunchConfig.fromProperties(System.getProperties());
        Optional<ExitReport> exit = ExitReport.first(config.runDir(), config.size());
        exit.ifPresent(e -> onPeerExit(space.heap(), e.origin(), e.status(), false));
        return exit.isPresent();
    }

    /**
     * A call of the shared heap failed: while the program exits, the other nodes leave, and what that breaks for one of
     * the program's threads here (a fetch, a monitor, a write-back to a node that has ended) is no failure of the
     * program: on one JVM the thread would simply stop. Such a thread waits for the exit's end; any other (a shutdown
     * hook, which the JVM waits for) goes on to its error.
     */
    static void stopIfProgramThread() {
        if (exitKnown()) {
            ObjectSpace space = ObjectSpace.currentOrNull();
            if (space != null && space.threads().runsHere(Thread.currentThread())) {
                awaitEnd();
            }
        }
    }

    /** The calling thread waits for the exit under way to end this JVM; never returns. */
    static void awaitEnd() {
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // the JVM is ending; nothing to do but wait for it
            }
        }
    }

    /**
     * The exit's release: what the program wrote before it called {@code exit} is at its homes before any node hears of
     * the exit, so the shutdown hooks see it (on one JVM the exiting thread starts them).
     */
    private static void release(SharedHeap heap) {
        try {
            heap.release();
        } catch (RuntimeException e) {
            // a home already gone: what it held is gone with it
        }
    }

    private static void tellPeers(SharedHeap heap, int self, int status, boolean halt) {
        List<CompletableFuture<Object>> acks = new ArrayList<>();
        for (int node = 0; node < heap.size(); node++) {
            if (node != self) {
                try {
                    acks.add(heap.peers().programExit(node, self, status, halt));
                } catch (RuntimeException e) {
                    // a node already gone needs no telling
                }
            }
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ACK_WAIT_MS);
        for (CompletableFuture<Object> ack : acks) {
            try {
                ack.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (ExecutionException | TimeoutException e) {
                // gone or slow: it ends anyway, when it sees this node leave or the launcher stops it
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Tells the launcher that node {@code self} ends because the program called exit on node {@code origin}. */
    private static void report(int self, int origin, int status) {
        if (!new ExitReport(self, origin, status).write(LaunchConfig.fromProperties(System.getProperties()).runDir())) {
            System.err.println("cumulus: node " + self + " could not write its exit report; the run may be "
                + "reported as failed though the program called exit(" + status + ")");
        }
    }

    private static void end(int status, boolean halt) {
        System.out.flush();
        System.err.flush();
        if (halt) {
            saveRecordings();
            Runtime.getRuntime().halt(status);
        }
        System.exit(status);
    }

    /**
     * Before a halt: writes the node's flight recordings ({@code cumulus run --profile}) to their files, which their
     * dump on exit, a shutdown hook, would have written; a halt runs no hook, and the profile would find them empty.
     */
    private static void saveRecordings() {
        if (!FlightRecorder.isInitialized()) {
            return; // not profiled: nothing to save, and no recorder to start
        }
        for (Recording r : FlightRecorder.getFlightRecorder().getRecordings()) {
            try {
                if (r.getDestination() != null && r.getState() == RecordingState.RUNNING) {
                    r.stop(); // writes it to its destination
                }
            } catch (RuntimeException e) {
                // the program halts all the same; the profile says which recording it could not read
            }
        }
    }
}
