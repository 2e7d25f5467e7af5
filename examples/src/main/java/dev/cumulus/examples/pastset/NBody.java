package dev.cumulus.examples.pastset;

import dev.cumulus.Cluster;
import dev.cumulus.pastset.Element;
import dev.cumulus.pastset.PastSet;
import dev.cumulus.pastset.Semantics;
import dev.cumulus.pastset.Template;
import dev.cumulus.pastset.Tuple;

import java.util.Arrays;
import java.util.Random;

/**
 * Java PastSet §5.2: a direct O(n²) N-body simulation. Each node owns a block of bodies; every step it computes the
 * forces on its bodies from all positions, moves its bodies, and exchanges positions through one element redefined
 * with {@link Semantics#allGather(int)}: every node moves {@code (rank, its positions)} and observes one tuple with
 * everybody's. At the end the kinetic energy is summed with {@link Semantics#sum(int)}, and node 0 checks positions
 * and energy against a sequential run.
 *
 * <pre>cumulus run --nodes 3 -cp examples/target/classes dev.cumulus.examples.pastset.NBody [BODIES] [STEPS] [SEED]</pre>
 */
public final class NBody {
    static final double G = 1.0;
    static final double DT = 1e-3;
    static final double SOFTENING = 1e-2;

    private NBody() {
    }

    /** What node 0 measured. */
    public record Result(int bodies, int steps, int workers, double maxPositionError, double energy,
                         double sequentialEnergy, long parallelNs, long sequentialNs) {
        public boolean verified() {
            return maxPositionError < 1e-9 && Math.abs(energy - sequentialEnergy) <= 1e-9 * Math.abs(sequentialEnergy);
        }
    }

    public static void main(String[] args) {
        int bodies = args.length > 0 ? Integer.parseInt(args[0]) : 600;
        int steps = args.length > 1 ? Integer.parseInt(args[1]) : 50;
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
        try (Cluster cluster = Cluster.join()) {
            Result r = run(cluster, bodies, steps, seed);
            if (r != null) {
                System.out.printf("N-body, %d bodies, %d steps on %d nodes: %.1f ms (sequential %.1f ms); "
                        + "max position error %.2e, kinetic energy %.6f (sequential %.6f): %s%n", r.bodies(), r.steps(),
                    r.workers(), r.parallelNs() / 1e6, r.sequentialNs() / 1e6, r.maxPositionError(), r.energy(),
                    r.sequentialEnergy(), r.verified() ? "verified" : "WRONG");
                if (!r.verified()) {
                    System.exit(1);
                }
            }
        }
    }

    /** The SPMD body: node 0's result, {@code null} elsewhere. */
    public static Result run(Cluster cluster, int bodies, int steps, long seed) {
        int n = cluster.size();
        int me = cluster.nodeId();
        PastSet space = cluster.pastSet();
        Template positionsT = Template.of("nbody-positions", int.class, double[].class);
        Template energyT = Template.of("nbody-energy", double.class);
        if (me == 0) {
            space.redefine(positionsT, Semantics.allGather(n));
            space.redefine(energyT, Semantics.sum(n));
        }
        cluster.barrier();
        Element positions = space.enter(positionsT);
        Element energy = space.enter(energyT);

        double[] mass = new double[bodies];
        double[] pos = new double[3 * bodies];
        double[] vel = new double[3 * bodies];
        initialise(seed, mass, pos, vel);
        int lo = lo(me, n, bodies);
        int hi = lo(me + 1, n, bodies);

        long start = System.nanoTime();
        for (int s = 0; s < steps; s++) {
            step(mass, pos, vel, lo, hi);
            positions.move(me, Arrays.copyOfRange(pos, 3 * lo, 3 * hi));
            Tuple all = positions.observe();
            for (int r = 0; r < n; r++) {
                double[] part = all.getDoubles(r);
                System.arraycopy(part, 0, pos, 3 * lo(r, n, bodies), part.length);
            }
            if (me == 0) {
                // every node observed the earlier rounds before contributing to this one: drop them
                positions.truncate(all.index());
            }
        }
        energy.move(kinetic(mass, vel, lo, hi));
        double total = energy.observe().getDouble(0);
        long parallelNs = System.nanoTime() - start;

        Result result = null;
        if (me == 0) {
            double[] sMass = new double[bodies];
            double[] sPos = new double[3 * bodies];
            double[] sVel = new double[3 * bodies];
            initialise(seed, sMass, sPos, sVel);
            long seqStart = System.nanoTime();
            for (int s = 0; s < steps; s++) {
                step(sMass, sPos, sVel, 0, bodies);
            }
            long sequentialNs = System.nanoTime() - seqStart;
            double maxErr = 0;
            for (int i = 0; i < pos.length; i++) {
                maxErr = Math.max(maxErr, Math.abs(pos[i] - sPos[i]));
            }
            result = new Result(bodies, steps, n, maxErr, total, kinetic(sMass, sVel, 0, bodies), parallelNs,
                sequentialNs);
        }
        cluster.barrier();
        return result;
    }

    static int lo(int rank, int n, int bodies) {
        return (int) ((long) rank * bodies / n);
    }

    static void initialise(long seed, double[] mass, double[] pos, double[] vel) {
        Random rnd = new Random(seed);
        for (int i = 0; i < mass.length; i++) {
            mass[i] = 0.5 + rnd.nextDouble();
            for (int d = 0; d < 3; d++) {
                pos[3 * i + d] = rnd.nextDouble() * 2 - 1;
                vel[3 * i + d] = (rnd.nextDouble() * 2 - 1) * 0.1;
            }
        }
    }

    /**
     * One leapfrog-like step for bodies {@code lo..hi-1}: forces from the current positions of all bodies, then
     * velocities and positions of the own bodies. Reads {@code pos} of all bodies before writing own positions into
     * a copy, so the result does not depend on how bodies are split.
     */
    static void step(double[] mass, double[] pos, double[] vel, int lo, int hi) {
        int bodies = mass.length;
        double[] next = new double[3 * (hi - lo)];
        for (int i = lo; i < hi; i++) {
            double ax = 0;
            double ay = 0;
            double az = 0;
            double xi = pos[3 * i];
            double yi = pos[3 * i + 1];
            double zi = pos[3 * i + 2];
            for (int j = 0; j < bodies; j++) {
                if (j == i) {
                    continue;
                }
                double dx = pos[3 * j] - xi;
                double dy = pos[3 * j + 1] - yi;
                double dz = pos[3 * j + 2] - zi;
                double d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
                double inv = G * mass[j] / (d2 * Math.sqrt(d2));
                ax += dx * inv;
                ay += dy * inv;
                az += dz * inv;
            }
            vel[3 * i] += ax * DT;
            vel[3 * i + 1] += ay * DT;
            vel[3 * i + 2] += az * DT;
            next[3 * (i - lo)] = xi + vel[3 * i] * DT;
            next[3 * (i - lo) + 1] = yi + vel[3 * i + 1] * DT;
            next[3 * (i - lo) + 2] = zi + vel[3 * i + 2] * DT;
        }
        System.arraycopy(next, 0, pos, 3 * lo, next.length);
    }

    static double kinetic(double[] mass, double[] vel, int lo, int hi) {
        double e = 0;
        for (int i = lo; i < hi; i++) {
            double v2 = vel[3 * i] * vel[3 * i] + vel[3 * i + 1] * vel[3 * i + 1] + vel[3 * i + 2] * vel[3 * i + 2];
            e += 0.5 * mass[i] * v2;
        }
        return e;
    }
}
