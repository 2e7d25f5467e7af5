package dev.cumulus.bench;

import dev.cumulus.AsyncTicket;
import dev.cumulus.Cluster;
import dev.cumulus.internal.launch.NodeRuntime;
import dev.cumulus.internal.transport.FrameSealing;


/**
 * One node of the Cumulus RPC measurement, started by {@link RpcBench} with the launch contract of
 * {@code cumulus run} ({@code -Dcumulus.*}) and the {@link Workload} ({@code -Dbench.*}).
 *
 * <ol>
 *   <li>every node exports an {@link Echo} as {@code echo-<id>}; barrier;</li>
 *   <li>sync: node 0 calls {@code echo} on nodes 1..n-1 round robin, one call at a time (the others only serve),
 *       or, alone, its own {@code echo} through a proxy; barrier;</li>
 *   <li>async: nodes 1..n-1 each keep {@code window} {@link AsyncTicket} calls outstanding to node 0 (each waits
 *       for the oldest ticket's result, then makes a new call), warm up, barrier, measure for the same time
 *       concurrently; barrier.</li>
 * </ol>
 */
public final class CumulusRpcNode {
    private CumulusRpcNode() {
    }

    /**
     * This benchmark's own setting (read only here, by the bench's node program): the node joins with unsealed UDP
     * frames, the baseline of {@code cumulus bench rpc --transport udp}. No option of {@code cumulus run} reaches it.
     */
    static final String UNSEALED_PROPERTY = "bench.udp.unsealed";

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        ChildIo.applyTimerSlack();
        Workload w = Workload.current();
        byte[] payload = ChildIo.payload(w.payloadBytes());
        try (Cluster cluster = Boolean.getBoolean(UNSEALED_PROPERTY)
                ? NodeRuntime.joinFromLaunch(FrameSealing.NONE_FOR_BENCH) : Cluster.join()) {
            int me = cluster.nodeId();
            int n = cluster.size();
            cluster.export(new EchoService(), Echo.class, "echo-" + me);
            cluster.barrier();
            if (me == 0) {
                // with one process: calls through a proxy to this node's own object (no transport, same copies)
                Echo[] targets = new Echo[Math.max(n - 1, 1)];
                for (int i = 0; i < targets.length; i++) {
                    targets[i] = cluster.lookup("echo-" + (n > 1 ? i + 1 : 0), Echo.class);
                    check(targets[i].echo(payload), payload);
                }
                ChildIo.measureSync(w, i -> targets[i % targets.length].echo(payload));
            }
            cluster.barrier();
            if (w.async() && n > 1) {
                Echo target = me == 0 ? null : cluster.lookup("echo-0", Echo.class);
                AsyncCaller caller = me == 0 ? null : new AsyncCaller(target, payload, w.window());
                if (caller != null) {
                    caller.warmUp(new ChildIo.AsyncWarmup(w));
                }
                cluster.barrier();
                if (me == 0) {
                    ChildIo.line("PHASE async start");
                }
                if (caller != null) {
                    long c0 = caller.completed();
                    long t0 = System.nanoTime();
                    caller.runFor(w.asyncMeasureNs());
                    ChildIo.asyncResult(caller.completed() - c0, System.nanoTime() - t0);
                    caller.drain();
                }
                cluster.barrier();
                if (me == 0) {
                    ChildIo.line("PHASE async end");
                }
            }
        }
    }

    static void check(byte[] got, byte[] sent) {
        if (got == null || got.length != sent.length || got[got.length - 1] != sent[sent.length - 1]) {
            throw new IllegalStateException("echo returned a wrong payload");
        }
    }

    /**
     * Keeps {@code window} asynchronous calls in flight, the way Babylon's programs use tickets: one ticket per call,
     * {@code getResult} of the oldest, then a new call in its place.
     */
    private static final class AsyncCaller {
        private final Echo target;
        private final byte[] payload;
        private final Echo[] tickets;
        private int oldest;
        private long completed;

        AsyncCaller(Echo target, byte[] payload, int window) {
            this.target = target;
            this.payload = payload;
            this.tickets = new Echo[window];
            for (int i = 0; i < window; i++) {
                tickets[i] = call();
            }
        }

        private Echo call() {
            Echo ticket = AsyncTicket.newTicket(target);
            ticket.echo(payload);
            return ticket;
        }

        long completed() {
            return completed;
        }

        void warmUp(ChildIo.AsyncWarmup warmup) {
            while (!warmup.over()) {
                next();
            }
        }

        void runFor(long ns) {
            long end = System.nanoTime() + ns;
            while (System.nanoTime() - end < 0) {
                next();
            }
        }

        /** Waits for the oldest call's result and makes a new call in its place. */
        private void next() {
            check(AsyncTicket.getResult(tickets[oldest]), payload);
            completed++;
            tickets[oldest] = call();
            oldest = (oldest + 1) % tickets.length;
        }

        /** Waits for the calls still in flight. */
        void drain() {
            for (Echo ticket : tickets) {
                check(AsyncTicket.getResult(ticket), payload);
            }
        }
    }

    /** Returns the argument. */
    public static final class EchoService implements Echo {
        @Override
        public byte[] echo(byte[] payload) {
            return payload;
        }
    }
}
