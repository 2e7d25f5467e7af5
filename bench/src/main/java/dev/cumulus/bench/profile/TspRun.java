package dev.cumulus.bench.profile;

import dev.cumulus.bench.NodeCpuWatch;

/** One run of the replicated TSP: node 0's compute time and the CPU the run's node processes used. */
record TspRun(double computeMs, NodeCpuWatch.NodeCpu cpu) {
    /** The launcher JVM's own CPU time until its nodes ended, s (NaN when not known). */
    double launcherS() {
        return cpu.launcherNs() < 0 ? Double.NaN : cpu.launcherNs() / 1e9;
    }
}
