package dev.cumulus.bench.pastset;

import dev.cumulus.Cluster;
import dev.cumulus.bench.ChildIo;
import dev.cumulus.bench.CumulusRpcNode;
import dev.cumulus.bench.Echo;
import dev.cumulus.pastset.Element;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Placement;
import dev.cumulus.pastset.Tuple;

import java.util.concurrent.CompletableFuture;

/**
 * One Cumulus node of the pastset suite, started by {@link PastSetBench} with the launch contract of
 * {@code cumulus run}. Channels are PastSet elements of template {@code (tag, byte[])}, placed first-touch: the home
 * process enters an element first, the others after a barrier. {@code put} = {@code move}, {@code take} =
 * {@code observe()}; every 256th observe of a channel also truncates its log up to the tuple it read, so the logs
 * (which keep observed tuples) do not grow by hundreds of megabytes during a run.
 *
 * <p>Besides {@link Scenarios}: before each Figure 3 payload size, process 1 times our RPC round trip to process 0
 * ({@code Echo.echo(byte[])} with the same payload), and for the breakdown sizes the parts of a remote round trip
 * (a remote move alone, a remote {@code observe()} and a remote {@code observe(i)} of a tuple that is there, the
 * round trip, and the round trip
 * with the move made asynchronous so that it overlaps the observe), measured interleaved
 * ({@link Scenarios#measureInterleaved}) so that their ratios are taken in the same seconds of the box's load.
 */
public final class PastSetNode {
    private static final int TRUNCATE_EVERY = 256;
    /** Trips of one kind in a row in the interleaved breakdown (the first of each not recorded). */
    private static final int BURST = 8;

    private PastSetNode() {
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        Scenarios.Settings settings = Scenarios.Settings.current();
        int[] breakdown = Scenarios.Settings.ints(System.getProperty("bench.ps.breakdown", ""));
        try (Cluster cluster = Cluster.join()) {
            int me = cluster.nodeId();
            PastSet space = cluster.pastSet(Placement.FIRST_TOUCH);
            cluster.export(new CumulusRpcNode.EchoService(), Echo.class, "echo-" + me);
            cluster.barrier();
            ElementSpace es = new ElementSpace(cluster, space, settings.window());
            Scenarios sc = new Scenarios(es, settings);
            sc.runAll(size -> {
                if (size < 0) {
                    rpc(cluster, sc, "warm.rpc", -size);
                    return;
                }
                rpc(cluster, sc, "rpc." + size, size);
                for (int b : breakdown) {
                    if (b == size) {
                        breakdown(es, sc, size);
                    }
                }
            });
        }
        System.exit(0);
    }

    /** Our RPC round trip, process 1 to process 0, {@code size} bytes each way. */
    static void rpc(Cluster cluster, Scenarios sc, String name, int size) {
        if (cluster.nodeId() == 1) {
            Echo echo = cluster.lookup("echo-0", Echo.class);
            byte[] payload = ChildIo.payload(size);
            sc.measure(name, i -> {
                payload[0] = (byte) i;
                byte[] back = echo.echo(payload);
                if (back.length != size || back[0] != (byte) i) {
                    throw new IllegalStateException("echo returned a wrong payload");
                }
            });
        }
        cluster.barrier();
    }

    /** The parts of the remote round trip, elements on process 0, process 1 calling. */
    static void breakdown(ElementSpace es, Scenarios sc, int size) {
        int me = es.me();
        String base = "bd." + size;
        Element sink = es.enterHomed(base + ".move", 0);
        Element held = es.enterHomed(base + ".held", 0);
        Element stock = es.enterHomed(base + ".stock", 0);
        Element ping = es.enterHomed(base + ".ping", 0);
        Element pong = es.enterHomed(base + ".pong", 0);
        byte[] token = ChildIo.payload(size);
        if (me == 0) {
            held.move((Object) token);
        }
        es.barrier();
        if (me == 1) {
            Scenarios.Trip move = i -> {
                // a remote move alone (nobody observes; truncated every 256 moves)
                long index = sink.move((Object) token);
                if (index % TRUNCATE_EVERY == TRUNCATE_EVERY - 1) {
                    sink.truncate(index + 1);
                }
            };
            Scenarios.TimedTrip observe = i -> {
                // a remote observe() of a tuple that is there (moved in untimed just before): the round trip's
                // observe when the echo was quicker than the move's reply
                stock.move((Object) token);
                long t0 = System.nanoTime();
                Tuple t = stock.observe();
                long ns = System.nanoTime() - t0;
                if (t.getBytes(0).length != size) {
                    throw new IllegalStateException("observe() returned a wrong tuple");
                }
                if (t.index() % TRUNCATE_EVERY == TRUNCATE_EVERY - 1) {
                    stock.truncate(t.index() + 1);
                }
                return ns;
            };
            Scenarios.Trip observeAt = i -> {
                // a remote re-read of a tuple that is there: one RPC carrying the payload back
                if (held.observe(0).getBytes(0).length != size) {
                    throw new IllegalStateException("observe(0) returned a wrong tuple");
                }
            };
            Scenarios.Trip roundTrip = i -> {
                token[0] = (byte) i;
                ping.move((Object) token);
                checkEcho(pong, pong.observe(), (byte) i);
            };
            Scenarios.Trip async = i -> {
                // the round trip with the move overlapping the observe
                token[0] = (byte) i;
                CompletableFuture<Long> moved = ping.moveAsync((Object) token);
                Tuple back = pong.observe();
                moved.join();
                checkEcho(pong, back, (byte) i);
            };
            sc.measureInterleaved(new String[] {"bd.rt." + size, "bd.move." + size, "bd.observe." + size,
                    "bd.observe-at." + size, "bd.async." + size},
                new Scenarios.TimedTrip[] {Scenarios.TimedTrip.of(roundTrip), Scenarios.TimedTrip.of(move), observe,
                    Scenarios.TimedTrip.of(observeAt), Scenarios.TimedTrip.of(async)}, BURST);
            ping.move((Object) Scenarios.STOP);
            pong.observe();
        } else if (me == 0) {
            long n = 0;
            while (true) {
                Tuple t = ping.observe();
                byte[] b = t.getBytes(0);
                pong.move((Object) b);
                if (++n % TRUNCATE_EVERY == 0) {
                    ping.truncate(t.index());
                }
                if (b.length == 0) {
                    break;
                }
            }
        }
        es.barrier();
    }

    /** Checks the token came back as sent; truncates pong's log every 256th tuple. */
    private static void checkEcho(Element pong, Tuple back, byte expected) {
        if (back.getBytes(0)[0] != expected) {
            throw new IllegalStateException("the token came back wrong");
        }
        if (back.index() % TRUNCATE_EVERY == TRUNCATE_EVERY - 1) {
            pong.truncate(back.index());
        }
    }

    /** PastSet elements as {@link Scenarios.Chan}nels. */
    static final class ElementSpace implements Scenarios.Space {
        private final Cluster cluster;
        private final PastSet space;
        private final int window;

        ElementSpace(Cluster cluster, PastSet space, int window) {
            this.cluster = cluster;
            this.space = space;
            this.window = window;
        }

        @Override
        public int me() {
            return cluster.nodeId();
        }

        @Override
        public int size() {
            return cluster.size();
        }

        @Override
        public void barrier() {
            cluster.barrier();
        }

        /** Collective: enters {@code name} with its home on process {@code home} (first touch). */
        Element enterHomed(String name, int home) {
            if (me() == home) {
                space.enter(name, byte[].class);
            }
            cluster.barrier();
            Element e = space.enter(name, byte[].class);
            if (e.homeNode() != home) {
                throw new IllegalStateException("element " + name + " is on node " + e.homeNode() + ", not " + home);
            }
            return e;
        }

        @Override
        public Scenarios.Chan[] open(String[] names, int[] homes, boolean bounded) {
            for (int i = 0; i < names.length; i++) {
                if (homes[i] == me()) {
                    space.enter(names[i], byte[].class);
                }
            }
            cluster.barrier();
            Scenarios.Chan[] c = new Scenarios.Chan[names.length];
            for (int i = 0; i < names.length; i++) {
                Element e = space.enter(names[i], byte[].class);
                if (e.homeNode() != homes[i]) {
                    throw new IllegalStateException("element " + names[i] + " is on node " + e.homeNode()
                        + ", not " + homes[i]);
                }
                if (bounded && homes[i] == me()) {
                    e.delta(window);
                }
                c[i] = new ElementChan(e);
            }
            cluster.barrier();
            return c;
        }
    }

    private static final class ElementChan implements Scenarios.Chan {
        private final Element element;
        private long taken;

        ElementChan(Element element) {
            this.element = element;
        }

        @Override
        public void put(byte[] b) {
            element.move((Object) b);
        }

        @Override
        public byte[] take() {
            Tuple t = element.observe();
            if (++taken % TRUNCATE_EVERY == 0) {
                element.truncate(t.index());
            }
            return t.getBytes(0);
        }
    }
}
