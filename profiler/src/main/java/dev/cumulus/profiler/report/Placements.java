package dev.cumulus.profiler.report;

import dev.cumulus.profiler.Events;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where each remote object lived and who called it, from {@code dev.cumulus.Migration} (one per move or refused move,
 * recorded by the node the object left) and {@code dev.cumulus.RemoteCall} events. A call that reached a forwarding
 * address (outcome {@code moved}) did not run there: it counts as <em>forwarded</em>, not as a call, since
 * the caller then calls the object's new node and records that call too.
 *
 * <p>The runtime's own objects (the name directory, the migration service, ...: names starting with
 * {@value #SYSTEM_PREFIX}) never move and are left out; their calls stay in the remote-call table.
 *
 * <p>From the per-object calls by caller node it derives {@link Suggestion}s: an object whose calls come mostly from one
 * node ({@link #SUGGEST_SHARE} of them or more, over the whole run) while it lives on another at the run's end. These
 * are computed here only; the text, JSON and HTML reports and the editor all carry them as they are.
 */
public final class Placements {
    /** Share of an object's calls (over the run) one node must make for the report to suggest moving it there. */
    public static final double SUGGEST_SHARE = 0.60;
    /** Fewest calls of an object before its callers' shares say anything: with fewer, no suggestion. */
    public static final long SUGGEST_MIN_CALLS = 10;
    /** How the runtime names its own remote objects. */
    public static final String SYSTEM_PREFIX = "cumulus.";
    /** The migration kind a suggestion names: the one every object supports that never refuses a busy object. */
    static final String SUGGESTED_KIND = "DELAYED";

    /**
     * One {@code dev.cumulus.Migration} event: a move, or an attempt that left the object where it was.
     *
     * @param object     the name the object was exported under
     * @param timeNs     when it ended (ns since the epoch): the object served on {@code to} from then on
     * @param pauseNs    how long the object's calls were held
     * @param callsHeld  calls that arrived during the move and were sent on to the new node
     * @param reason     why it moved ({@code requested}, or the rebalancer's reason)
     * @param outcome    {@code moved}, or why it stayed
     */
    public record Move(String object, long timeNs, String kind, int from, int to, long stateBytes, long pauseNs, long callsHeld,
                       String reason, String outcome) {
        /** Whether the object left {@code from} (else it stayed there). */
        public boolean moved() {
            return Events.MOVED.equals(outcome);
        }
    }

    /** The object lived on {@code node} from {@code fromNs} to {@code toNs} (ns since the epoch). */
    public record Stay(int node, long fromNs, long toNs) {
    }

    /** Calls one node made to one object. */
    public static final class CallerCalls {
        long calls;
        long forwarded;

        /** Calls that ran (any outcome but forwarded). */
        public long calls() { return calls; }
        /** Calls that reached a forwarding address first. */
        public long forwarded() { return forwarded; }
    }

    /**
     * Move {@code object} from {@code node} to {@code toNode}, which made {@code callerCalls} of its {@code calls}.
     */
    public record Suggestion(String object, int node, int toNode, long callerCalls, long calls) {
        /** The suggesting node's share of the calls, in percent. */
        public double sharePercent() {
            return calls == 0 ? 0 : 100.0 * callerCalls / calls;
        }

        /** The call that makes the move. */
        public String code() {
            return "Remote.migrate(" + object + ", " + toNode + ", Migration." + SUGGESTED_KIND + ")";
        }

        /** The suggestion as one sentence. */
        public String message() {
            return String.format(Locale.ROOT, "%s lives on node %d but node %d makes %.0f %% of its calls (%d of %d): %s",
                object, node, toNode, sharePercent(), callerCalls, calls, code());
        }
    }

    /** One remote object: its moves and calls by caller node. */
    public static final class ObjectPlacement {
        final List<Move> moves = new ArrayList<>();
        final TreeMap<Integer, CallerCalls> callers = new TreeMap<>();
        private long firstCallNs = Long.MAX_VALUE;
        private int firstTarget = -1;

        /** Every migration event of the object in time order, moves and refusals alike. */
        public List<Move> moves() { return moves; }
        /** Calls by caller node. */
        public TreeMap<Integer, CallerCalls> callers() { return callers; }

        public long calls() {
            return callers.values().stream().mapToLong(CallerCalls::calls).sum();
        }

        public long forwarded() {
            return callers.values().stream().mapToLong(CallerCalls::forwarded).sum();
        }

        /** Where it was at the run's start: the first move's source, else where its first call went; -1 unknown. */
        public int firstNode() {
            return moves.isEmpty() ? firstTarget : moves.getFirst().from();
        }

        /** Where it was at the run's end; -1 unknown. */
        public int node() {
            int node = firstNode();
            for (Move m : moves) {
                if (m.moved()) {
                    node = m.to();
                }
            }
            return node;
        }

        /**
         * Where it lived from {@code startNs} (the run's first event) to {@code endNs} (its last): one stay per node
         * it served on, in time order, each ending where the next begins. Empty when its first node is unknown.
         */
        public List<Stay> location(long startNs, long endNs) {
            List<Stay> stays = new ArrayList<>();
            int node = firstNode();
            if (node < 0) {
                return stays;
            }
            long from = startNs;
            for (Move m : moves) {
                if (m.moved()) {
                    long at = Math.max(from, m.timeNs());
                    stays.add(new Stay(node, from, at));
                    node = m.to();
                    from = at;
                }
            }
            stays.add(new Stay(node, from, Math.max(from, endNs)));
            return stays;
        }

        /** The suggested move, if one caller makes at least {@link #SUGGEST_SHARE} of the calls and it lives elsewhere. */
        public Optional<Suggestion> suggestion(String object) {
            long calls = calls();
            int node = node();
            if (calls < SUGGEST_MIN_CALLS || node < 0) {
                return Optional.empty();
            }
            Map.Entry<Integer, CallerCalls> top = callers.entrySet().stream()
                .max(Comparator.comparingLong(e -> e.getValue().calls))
                .orElseThrow();
            long topCalls = top.getValue().calls;
            if (top.getKey() < 0 || top.getKey() == node || topCalls < SUGGEST_SHARE * calls) {
                return Optional.empty();
            }
            return Optional.of(new Suggestion(object, node, top.getKey(), topCalls, calls));
        }

        void addCall(int caller, int target, boolean forwarded, long endNs) {
            CallerCalls c = callers.computeIfAbsent(caller, k -> new CallerCalls());
            if (forwarded) {
                c.forwarded++;
                return;
            }
            c.calls++;
            if (endNs < firstCallNs && target >= 0) {
                firstCallNs = endNs;
                firstTarget = target;
            }
        }
    }

    private final Map<String, ObjectPlacement> objects = new TreeMap<>();
    private final List<Move> moves = new ArrayList<>();

    /** Adds one {@code RemoteCall}. */
    void addCall(String object, int caller, int target, String outcome, long endNs) {
        if (object.startsWith(SYSTEM_PREFIX)) {
            return;
        }
        placement(object).addCall(caller, target, Events.MOVED.equals(outcome), endNs);
    }

    /** Adds one {@code Migration}. */
    void addMove(Move move) {
        if (move.object().startsWith(SYSTEM_PREFIX)) {
            return;
        }
        placement(move.object()).moves.add(move);
        moves.add(move);
    }

    /** Puts the moves in time order; call once, after the last event. */
    void finish() {
        objects.values().forEach(o -> o.moves.sort(Comparator.comparingLong(Move::timeNs)));
        moves.sort(Comparator.comparingLong(Move::timeNs));
    }

    private ObjectPlacement placement(String object) {
        return objects.computeIfAbsent(object, k -> new ObjectPlacement());
    }

    /** Remote objects by name. */
    public Map<String, ObjectPlacement> objects() {
        return objects;
    }

    /** Every object's migrations (moves and attempts that left it where it was) in time order. */
    public List<Move> moves() {
        return moves;
    }

    /** The suggested moves, by object name. */
    public List<Suggestion> suggestions() {
        List<Suggestion> out = new ArrayList<>();
        objects.forEach((name, o) -> o.suggestion(name).ifPresent(out::add));
        return out;
    }
}
