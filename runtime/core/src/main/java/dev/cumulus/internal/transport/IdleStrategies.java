package dev.cumulus.internal.transport;

import dev.cumulus.CumulusException;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * Named idle strategies for the node agent's duty cycle ({@code -Dcumulus.idle=...}, {@code cumulus run --idle}).
 *
 * <ul>
 *   <li>{@code backoff} (default): spin 200, yield 50, then park from 1 µs doubling up to 50 µs. On a box with fewer
 *       cores than busy threads this gives the CPU back quickly, yet wakes within ~60 µs when idle. A node's main
 *       thread on one host sleeps on its doorbell instead of these parks ({@code Doorbells}).</li>
 *   <li>{@code backoff:SPINS:YIELDS:MIN_PARK_NS:MAX_PARK_NS}: the same with your numbers.</li>
 *   <li>{@code spin}: busy spin. Lowest latency when every node has a dedicated core; starves others when not.</li>
 *   <li>{@code yield}: Thread.yield in a loop.</li>
 *   <li>{@code sleep:NS}: sleep a fixed time when idle (lowest CPU use).</li>
 * </ul>
 * The figures behind the default are in docs/design/THREADING.md.
 */
public final class IdleStrategies {
    public static final String DEFAULT = "backoff";

    private IdleStrategies() {
    }

    /** Parses a spec; throws a {@link CumulusException} that lists the accepted forms when it is malformed. */
    public static IdleStrategy parse(String spec) {
        String s = spec == null ? DEFAULT : spec.trim().toLowerCase();
        try {
            if (s.equals("backoff")) {
                return new BackoffIdleStrategy(200, 50, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MICROSECONDS.toNanos(50));
            }
            if (s.startsWith("backoff:")) {
                String[] p = s.substring("backoff:".length()).split(":");
                if (p.length != 4) {
                    throw new IllegalArgumentException("needs four numbers");
                }
                return new BackoffIdleStrategy(Long.parseLong(p[0]), Long.parseLong(p[1]), Long.parseLong(p[2]),
                    Long.parseLong(p[3]));
            }
            if (s.equals("spin")) {
                return new BusySpinIdleStrategy();
            }
            if (s.equals("yield")) {
                return new YieldingIdleStrategy();
            }
            if (s.startsWith("sleep:")) {
                return new SleepingIdleStrategy(Long.parseLong(s.substring("sleep:".length())));
            }
        } catch (IllegalArgumentException e) {
            // fall through to the message below
        }
        throw new CumulusException("unknown idle strategy '" + spec + "'; use backoff, backoff:SPINS:YIELDS:MIN_PARK_NS:"
            + "MAX_PARK_NS, spin, yield or sleep:NS");
    }
}
