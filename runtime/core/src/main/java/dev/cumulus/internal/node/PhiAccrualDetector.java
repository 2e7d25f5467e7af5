package dev.cumulus.internal.node;

/**
 * The phi accrual failure detector (Hayashibara, Défago, Yared, Katayama, 2004) for one peer, with a floor and a
 * ceiling. It keeps the last {@link #WINDOW} inter-arrival times of the peer's proofs of life (heartbeats whose
 * progress counter moved) and, for a silence of {@code t}, computes {@code phi = -log10(P(next proof later than t))}
 * under a normal distribution with the window's mean and standard deviation (at least {@code minStdNs}). The peer is
 * suspected once phi reaches the threshold — but never before {@code floorNs} of silence, and always at
 * {@code ceilingNs}. A peer whose beats come like a clock is suspected at the floor; one whose beats come irregularly
 * (a loaded host, long collections) is given more time, up to the ceiling.
 *
 * <p>Pure state, time as arguments (tests feed samples with a stepped clock); agent thread only.
 */
final class PhiAccrualDetector {
    /** Inter-arrival samples kept: about 13 s of history at the default 200 ms interval. */
    static final int WINDOW = 64;
    private static final double LN_10 = Math.log(10);

    private final double threshold;
    private final long minStdNs;
    private final long floorNs;
    private final long ceilingNs;
    private final long[] samples = new long[WINDOW];
    private int count;
    private int next;
    private double sum;
    private double sumOfSquares;
    private long lastProofNs;

    /**
     * @param threshold        phi at which the peer is suspected (8: a wrong suspicion about once in 10^8 silences
     *                         if the model fits)
     * @param expectedInterval the heartbeat interval: the window starts with two samples of it, so a young detector
     *                         has a mean to start from
     * @param minStdNs         the least standard deviation assumed (clock-like beats would otherwise make any delay
     *                         look infinitely unlikely)
     * @param floorNs          the least silence ever suspected
     * @param ceilingNs        the silence always suspected
     * @param startNs          when the peer was first heard from
     */
    PhiAccrualDetector(double threshold, long expectedInterval, long minStdNs, long floorNs, long ceilingNs,
                       long startNs) {
        if (threshold <= 0 || expectedInterval <= 0 || minStdNs <= 0 || floorNs <= 0 || ceilingNs < floorNs) {
            throw new IllegalArgumentException("phi accrual detector: threshold " + threshold + ", interval "
                + expectedInterval + " ns, min std " + minStdNs + " ns, floor " + floorNs + " ns, ceiling " + ceilingNs
                + " ns: all must be positive and the floor at most the ceiling");
        }
        this.threshold = threshold;
        this.minStdNs = minStdNs;
        this.floorNs = floorNs;
        this.ceilingNs = ceilingNs;
        this.lastProofNs = startNs;
        add(expectedInterval);
        add(expectedInterval);
    }

    /** A proof of life arrived at {@code nowNs}: the time since the previous one becomes a sample. */
    void proof(long nowNs) {
        long interval = nowNs - lastProofNs;
        if (interval < 0) {
            return; // a time from before the last proof (an older clock reading): nothing new
        }
        add(interval);
        lastProofNs = nowNs;
    }

    private void add(long interval) {
        if (count == WINDOW) {
            long old = samples[next];
            sum -= old;
            sumOfSquares -= (double) old * old;
        } else {
            count++;
        }
        samples[next] = interval;
        next = (next + 1) % WINDOW;
        sum += interval;
        sumOfSquares += (double) interval * interval;
    }

    /** When the last proof of life arrived. */
    long lastProofNs() {
        return lastProofNs;
    }

    /** Silence at {@code nowNs}: time since the last proof of life. */
    long silenceNs(long nowNs) {
        return Math.max(0, nowNs - lastProofNs);
    }

    /** The mean of the kept inter-arrival samples, in ns. */
    double meanNs() {
        return sum / count;
    }

    /** Their standard deviation, in ns, at least the assumed minimum. */
    double stdNs() {
        double mean = meanNs();
        double variance = Math.max(0, sumOfSquares / count - mean * mean);
        return Math.max(minStdNs, Math.sqrt(variance));
    }

    /**
     * phi for the silence at {@code nowNs}: {@code -log10} of the probability that a proof of life still comes later.
     * The normal distribution's tail is taken from the logistic approximation of its CDF,
     * {@code 1 / (1 + e^-g)} with {@code g = y (1.5976 + 0.070566 y^2)} (Bowling et al., 2009), whose {@code -log10}
     * tail {@code log10(1 + e^g)} is computed without overflow.
     */
    double phi(long nowNs) {
        double y = (silenceNs(nowNs) - meanNs()) / stdNs();
        double g = y * (1.5976 + 0.070566 * y * y);
        double lnTail = g > 30 ? g : Math.log1p(Math.exp(g));
        return lnTail / LN_10;
    }

    /** Whether the peer is suspected at {@code nowNs}: silent for the ceiling, or past the floor with phi reached. */
    boolean suspects(long nowNs) {
        long silence = silenceNs(nowNs);
        return silence >= ceilingNs || silence >= floorNs && phi(nowNs) >= threshold;
    }
}
