package dev.cumulus.bench.migration;

import dev.cumulus.Migration;
import dev.cumulus.SafeMode;

/** The remote objects the migration suite moves and calls. */
public final class MovingObjects {
    private MovingObjects() {
    }

    /** An object whose state is one {@code byte[]}: what a move carries. */
    public interface Blob {
        int length();
    }

    public static class BlobImpl implements Blob {
        private final byte[] state;

        public BlobImpl(int bytes) {
            state = new byte[bytes];
            for (int i = 0; i < bytes; i += 4096) {
                state[i] = (byte) i;
            }
        }

        @Override
        public int length() {
            return state.length;
        }
    }

    /** Receives bytes in a remote call: the baseline a move is measured against. */
    public interface Sink {
        int take(byte[] bytes);
    }

    public static class SinkImpl implements Sink {
        @Override
        public int take(byte[] bytes) {
            return bytes.length;
        }
    }

    /** A small call, for the stale-proxy latencies. */
    public interface Ping {
        int ping(int x);
    }

    public static class PingImpl implements Ping {
        @Override
        public int ping(int x) {
            return x + 1;
        }
    }

    /**
     * Counts the calls of each caller, which numbers them 0, 1, 2, ... and calls one at a time: a number seen twice is
     * a doubled call, a number skipped a lost one.
     */
    public interface Counter {
        /** Applies call {@code seq} of {@code caller}; returns how many of its calls were applied. */
        long apply(int caller, long seq);

        /** {applied, next expected number, doubled, skipped} for {@code caller}. */
        long[] report(int caller);
    }

    public static class CounterImpl implements Counter {
        private final long[] applied;
        private final long[] next;
        private final long[] doubled;
        private final long[] skipped;

        public CounterImpl(int callers) {
            applied = new long[callers];
            next = new long[callers];
            doubled = new long[callers];
            skipped = new long[callers];
        }

        @Override
        public synchronized long apply(int caller, long seq) {
            applied[caller]++;
            if (seq == next[caller]) {
                next[caller]++;
            } else if (seq < next[caller]) {
                doubled[caller]++;
            } else {
                skipped[caller] += seq - next[caller];
                next[caller] = seq + 1;
            }
            // after the change: a safe-point move stopping here must undo it (the call runs again on the new node)
            Migration.point();
            return applied[caller];
        }

        @Override
        public synchronized long[] report(int caller) {
            return new long[] {applied[caller], next[caller], doubled[caller], skipped[caller]};
        }
    }

    /** The same counter in safe mode, for {@link Migration#SAFE_POINT} moves. */
    @SafeMode
    public static class SafeCounterImpl extends CounterImpl {
        public SafeCounterImpl(int callers) {
            super(callers);
        }
    }
}
