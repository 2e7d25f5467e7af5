package dev.cumulus.bench.pastset;

import dev.cumulus.bench.ChildIo;
import dev.cumulus.bench.JitQuiet;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.IntConsumer;

/**
 * The measurement loops of the pastset suite, shared by the Cumulus node ({@link PastSetNode}: elements,
 * {@code move}/{@code observe}) and the Hazelcast member ({@link HazelcastNode}: {@code IQueue},
 * {@code put}/{@code take}), so both systems run exactly the same protocol. Results go to stdout as
 * {@code RESULT <name> p50=.. p99=.. count=..} lines (ns), {@code RESULT <name> bytes=.. ns=..} for bandwidth, and
 * {@code DONE} at the end.
 *
 * <p>A token of length 0 ends an echo or ring loop (payloads are at least 1 byte).
 */
final class Scenarios {
    static final byte[] STOP = new byte[0];
    private static final long HIGHEST_NS = TimeUnit.SECONDS.toNanos(30);

    /** One FIFO channel of tuples/items with a home process. */
    interface Chan {
        void put(byte[] b);

        byte[] take();
    }

    /** What a system offers the loops. */
    interface Space {
        int me();

        int size();

        /**
         * Collective (every process calls it with the same arguments): the channels {@code names[i]} homed on
         * process {@code homes[i]}; {@code bounded}: at most {@link Settings#window} unread items (flow control).
         */
        Chan[] open(String[] names, int[] homes, boolean bounded);

        void barrier();
    }

    /**
     * How long and what to run, as {@code -Dbench.ps.*} properties.
     *
     * @param sizes      Figure 3 payloads (bytes)
     * @param ringSizes  ring payloads (bytes)
     * @param bwSizes    bandwidth tuple sizes (bytes)
     * @param warmup     round trips (laps) before measuring, at most {@code warmupNs}
     * @param measured   measured round trips (laps), at most {@code measureNs}
     * @param jitWaitNs  the longest a warm-up goes on past its own for the JIT compilers of the measurement's JVMs to
     *                   quiet down ({@link JitQuiet}): trips measured while C2 still compiles the path on one of a
     *                   small box's cores read well above the steady state, ours and Hazelcast's alike, and four JVMs
     *                   on two cores compile for seconds
     * @param bwTuples   bandwidth: tuples streamed (after {@code window} warm-up tuples), at most {@code measureNs}
     * @param window     DeltaValue / queue capacity of the bandwidth stream
     * @param fig3       whether this set runs Figure 3 (needs 3 processes) and the bandwidth test
     * @param rings      ring sizes this set runs (each at most its process count)
     */
    record Settings(int[] sizes, int[] ringSizes, int[] bwSizes, int warmup, int measured, long warmupNs,
                    long jitWaitNs, long measureNs, int bwTuples, int window, boolean fig3, int[] rings) {
        static Settings standard() {
            return new Settings(new int[] {1, 64, 1024, 8192, 32768}, new int[] {1, 1024, 32768},
                new int[] {32768, 262144}, 1000, 5000, ms(500), JitQuiet.MAX_WAIT_NS, ms(1500), 4000, 16, true,
                new int[0]);
        }

        static Settings quick() {
            return new Settings(new int[] {1, 64, 1024, 8192, 32768}, new int[] {1, 32768}, new int[] {32768},
                100, 400, ms(150), ms(600), ms(300), 300, 16, true, new int[0]);
        }

        private static long ms(long v) {
            return TimeUnit.MILLISECONDS.toNanos(v);
        }

        Settings with(boolean fig3, int[] rings) {
            return new Settings(sizes, ringSizes, bwSizes, warmup, measured, warmupNs, jitWaitNs, measureNs, bwTuples,
                window, fig3, rings);
        }

        List<String> toJvmArguments() {
            List<String> a = new ArrayList<>();
            a.add("-Dbench.ps.sizes=" + join(sizes));
            a.add("-Dbench.ps.ring.sizes=" + join(ringSizes));
            a.add("-Dbench.ps.bw.sizes=" + join(bwSizes));
            a.add("-Dbench.ps.warmup=" + warmup);
            a.add("-Dbench.ps.measured=" + measured);
            a.add("-Dbench.ps.warmup.ns=" + warmupNs);
            a.add("-Dbench.ps.jit.wait.ns=" + jitWaitNs);
            a.add("-Dbench.ps.measure.ns=" + measureNs);
            a.add("-Dbench.ps.bw.tuples=" + bwTuples);
            a.add("-Dbench.ps.window=" + window);
            a.add("-Dbench.ps.fig3=" + fig3);
            a.add("-Dbench.ps.rings=" + join(rings));
            return a;
        }

        static Settings current() {
            Properties p = System.getProperties();
            return new Settings(ints(p.getProperty("bench.ps.sizes")), ints(p.getProperty("bench.ps.ring.sizes")),
                ints(p.getProperty("bench.ps.bw.sizes")), Integer.parseInt(p.getProperty("bench.ps.warmup")),
                Integer.parseInt(p.getProperty("bench.ps.measured")),
                Long.parseLong(p.getProperty("bench.ps.warmup.ns")),
                Long.parseLong(p.getProperty("bench.ps.jit.wait.ns")),
                Long.parseLong(p.getProperty("bench.ps.measure.ns")),
                Integer.parseInt(p.getProperty("bench.ps.bw.tuples")),
                Integer.parseInt(p.getProperty("bench.ps.window")),
                Boolean.parseBoolean(p.getProperty("bench.ps.fig3")), ints(p.getProperty("bench.ps.rings", "")));
        }

        static String join(int[] v) {
            return String.join(",", Arrays.stream(v).mapToObj(Integer::toString).toList());
        }

        static int[] ints(String s) {
            return s == null || s.isBlank() ? new int[0] : Arrays.stream(s.split(",")).mapToInt(Integer::parseInt)
                .toArray();
        }
    }

    /** One round trip (or lap) number {@code i}. */
    @FunctionalInterface
    interface Trip {
        void run(int i);
    }

    /** A trip that times itself (it may prepare untimed): returns the nanoseconds to record. */
    @FunctionalInterface
    interface TimedTrip {
        long nanos(int i);

        /** {@code trip} timed as a whole. */
        static TimedTrip of(Trip trip) {
            return i -> {
                long t0 = System.nanoTime();
                trip.run(i);
                return System.nanoTime() - t0;
            };
        }
    }

    private final Space space;
    private final Settings s;

    Scenarios(Space space, Settings s) {
        this.space = space;
        this.s = s;
    }

    Settings settings() {
        return s;
    }

    /**
     * Everything this set was asked for, {@code beforeSize} before each Figure 3 payload size (negative: the
     * unreported warm-up pass with that payload); then DONE.
     */
    void runAll(IntConsumer beforeSize) {
        if (s.fig3()) {
            // a warm-up pass of both placements (and the caller's per-size step), not reported: the first payload
            // would otherwise also carry the JIT's and the first connections' cost
            if (beforeSize != null) {
                beforeSize.accept(-s.sizes()[0]);
            }
            pingPong("warm.one", s.sizes()[0], 1, 0, 0);
            pingPong("warm.all", s.sizes()[0], 0, 1, 2);
            for (int size : s.sizes()) {
                if (beforeSize != null) {
                    beforeSize.accept(size);
                }
                // elements (queues) on process 0, which echoes; process 1 measures
                pingPong("rt.one." + size, size, 1, 0, 0);
                // elements (queues) on process 2; process 0 measures, process 1 echoes
                pingPong("rt.all." + size, size, 0, 1, 2);
            }
        }
        boolean warm = s.fig3();
        for (int n : s.rings()) {
            if (!warm) {
                // a set that runs only rings gets the same unreported warm-up pass as Figure 3's: its first row would
                // otherwise be measured while the JIT still compiles the path
                ring("warm.", n, s.ringSizes()[0]);
                warm = true;
            }
            for (int size : s.ringSizes()) {
                ring("", n, size);
            }
        }
        if (s.fig3()) {
            for (int size : s.bwSizes()) {
                bandwidth(size);
            }
        }
        space.barrier();
        ChildIo.line("DONE");
    }

    /** Figure 3: {@code measurer} moves a token into ping and observes it back from pong; {@code echo} returns it. */
    void pingPong(String name, int size, int measurer, int echo, int home) {
        Chan[] c = space.open(new String[] {name + ".ping", name + ".pong"}, new int[] {home, home}, false);
        Chan ping = c[0];
        Chan pong = c[1];
        int me = space.me();
        if (me == measurer) {
            byte[] token = ChildIo.payload(size);
            measure(name, i -> {
                token[0] = (byte) i;
                ping.put(token);
                byte[] back = pong.take();
                if (back.length != size || back[0] != (byte) i || back[size - 1] != token[size - 1]) {
                    throw new IllegalStateException(name + ": the token came back wrong (" + back.length + " bytes)");
                }
            });
            ping.put(STOP);
            pong.take();
        } else if (me == echo) {
            while (true) {
                byte[] b = ping.take();
                pong.put(b);
                if (b.length == 0) {
                    break;
                }
            }
        }
        space.barrier();
    }

    /** Figures 4/5: processes 0..n-1 pass a token round; process i reads ring-i (its own) and writes ring-(i+1). */
    void ring(String prefix, int n, int size) {
        String base = prefix + "ring." + n + "." + size;
        String[] names = new String[n];
        int[] homes = new int[n];
        for (int i = 0; i < n; i++) {
            names[i] = base + "." + i;
            homes[i] = i;
        }
        Chan[] c = space.open(names, homes, false);
        int me = space.me();
        if (me < n) {
            Chan mine = c[me];
            Chan right = c[(me + 1) % n];
            if (me == 0) {
                byte[] token = ChildIo.payload(size);
                measure(base, i -> {
                    token[0] = (byte) i;
                    right.put(token);
                    byte[] back = mine.take();
                    if (back.length != size || back[0] != (byte) i) {
                        throw new IllegalStateException(base + ": the token came back wrong");
                    }
                });
                right.put(STOP);
                mine.take();
            } else {
                while (true) {
                    byte[] b = mine.take();
                    right.put(b);
                    if (b.length == 0) {
                        break;
                    }
                }
            }
        }
        space.barrier();
    }

    /**
     * Figure 7: process 1 streams tuples of {@code size} bytes into a channel homed on process 0 (flow control: at
     * most {@code window} unread), process 0 reads them. Process 0 times from the end of the warm-up tuples to the
     * last tuple read.
     */
    void bandwidth(int size) {
        String name = "bw." + size;
        Chan ch = space.open(new String[] {name}, new int[] {0}, true)[0];
        int me = space.me();
        int warm = s.window() * 2;
        if (me == 1) {
            byte[] tuple = ChildIo.payload(size);
            for (int i = 0; i < warm; i++) {
                ch.put(tuple);
            }
            long end = System.nanoTime() + s.measureNs();
            for (int i = 0; i < s.bwTuples() && System.nanoTime() - end < 0; i++) {
                ch.put(tuple);
            }
            ch.put(STOP);
        } else if (me == 0) {
            for (int i = 0; i < warm; i++) {
                ch.take();
            }
            ChildIo.line("PHASE " + name + " start");
            long t0 = System.nanoTime();
            long t1 = t0;
            long bytes = 0;
            long tuples = 0;
            while (true) {
                byte[] b = ch.take();
                if (b.length == 0) {
                    break;
                }
                t1 = System.nanoTime();
                bytes += b.length;
                tuples++;
            }
            ChildIo.line("PHASE " + name + " end");
            ChildIo.line("RESULT " + name + " bytes=" + bytes + " tuples=" + tuples + " ns=" + Math.max(1, t1 - t0));
        }
        space.barrier();
    }

    /**
     * Several kinds of trip measured interleaved: each round runs every kind in a burst of {@code burst} trips,
     * starting one kind further along the list each round, so every kind meets the same moments of the box's load
     * and follows every other kind equally often. The first trip of each burst is not recorded: it finds the
     * processes as the previous kind left them (a thread that waited for this kind's messages meanwhile parked past
     * its poll budget), where a loop of one kind never lets them park; the others measure the kind's steady state.
     * Warm-up rounds (then more until the JITs are quiet, as {@link #measure}), then rounds until each kind has
     * {@link Settings#measured} samples (at most {@code trips.length} times {@link Settings#measureNs}); prints one
     * {@code RESULT} line per kind, as {@link #measure} does.
     */
    void measureInterleaved(String[] names, TimedTrip[] trips, int burst) {
        int n = trips.length;
        long end = System.nanoTime() + s.warmupNs() * n;
        int i = 0;
        int warm = 0;
        for (; warm * (burst - 1) < s.warmup() && System.nanoTime() - end < 0; warm++) {
            i = warmRound(trips, burst, warm, i);
        }
        JitQuiet jit = JitQuiet.ofMeasurement();
        for (long jitEnd = System.nanoTime() + s.jitWaitNs(); !jit.quiet() && System.nanoTime() - jitEnd < 0; warm++) {
            i = warmRound(trips, burst, warm, i);
        }
        Histogram[] h = new Histogram[n];
        for (int j = 0; j < n; j++) {
            h[j] = new Histogram(HIGHEST_NS, 3);
        }
        ChildIo.line("PHASE " + String.join("+", names) + " start");
        end = System.nanoTime() + s.measureNs() * n;
        for (int r = 0; r * (burst - 1) < s.measured(); r++) {
            for (int j = 0; j < n; j++) {
                int kind = (r + j) % n;
                for (int b = 0; b < burst; b++) {
                    long ns = trips[kind].nanos(i++);
                    if (b > 0) {
                        h[kind].recordValue(Math.min(ns, HIGHEST_NS));
                    }
                }
            }
            if (System.nanoTime() - end > 0) {
                break;
            }
        }
        ChildIo.line("PHASE " + String.join("+", names) + " end");
        for (int j = 0; j < n; j++) {
            result(names[j], h[j]);
        }
    }

    /** One unrecorded round of every kind in a burst, starting at kind {@code r}; returns the next trip number. */
    private static int warmRound(TimedTrip[] trips, int burst, int r, int i) {
        int n = trips.length;
        for (int j = 0; j < n; j++) {
            for (int b = 0; b < burst; b++) {
                trips[(r + j) % n].nanos(i++);
            }
        }
        return i;
    }

    /**
     * Warm-up (its trips, at most its time, then until the JITs are quiet), then the measured trips; prints
     * {@code RESULT name p50=.. p99=.. count=..}.
     */
    void measure(String name, Trip trip) {
        measure(name, s.warmup(), s.measured(), trip);
    }

    void measure(String name, int warmup, int measured, Trip trip) {
        long end = System.nanoTime() + s.warmupNs();
        int i = 0;
        for (; i < warmup && System.nanoTime() - end < 0; i++) {
            trip.run(i);
        }
        JitQuiet jit = JitQuiet.ofMeasurement();
        for (long jitEnd = System.nanoTime() + s.jitWaitNs(); !jit.quiet() && System.nanoTime() - jitEnd < 0; i++) {
            trip.run(i);
        }
        Histogram h = new Histogram(HIGHEST_NS, 3);
        ChildIo.line("PHASE " + name + " start");
        long start = System.nanoTime();
        end = start + s.measureNs();
        for (int k = 0; k < measured; k++, i++) {
            long t0 = System.nanoTime();
            trip.run(i);
            long t1 = System.nanoTime();
            h.recordValue(Math.min(t1 - t0, HIGHEST_NS));
            if (t1 - end > 0) {
                break;
            }
        }
        ChildIo.line("PHASE " + name + " end");
        result(name, h);
    }

    private static void result(String name, Histogram h) {
        ChildIo.line("RESULT " + name + " p50=" + h.getValueAtPercentile(50) + " p99=" + h.getValueAtPercentile(99)
            + " count=" + h.getTotalCount() + " mean=" + (long) h.getMean());
    }
}
