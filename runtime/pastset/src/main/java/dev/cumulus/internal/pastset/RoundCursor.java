package dev.cumulus.internal.pastset;

import dev.cumulus.pastset.Semantics;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The observe side shared by the built-in collective semantics: round results in the log, and per caller the next
 * round it has not observed. A caller is a thread of a node ({@link Semantics.Caller}), so each process sees every
 * round's result once and in order, whatever the others do. A round's tuple counts as observed (First moves past
 * it) once {@code n} observes have read it.
 */
final class RoundCursor {
    private final int n;
    private final List<Long> resultIndex = new ArrayList<>();
    private final List<Integer> reads = new ArrayList<>();
    private final Map<Semantics.Caller, Integer> nextRound = new HashMap<>();
    private int firstUnread;

    RoundCursor(int n) {
        this.n = n;
    }

    void completed(long logIndex) {
        resultIndex.add(logIndex);
        reads.add(0);
    }

    int completedRounds() {
        return resultIndex.size();
    }

    long observe(Semantics.Context element, Semantics.Caller caller) {
        int round = nextRound.getOrDefault(caller, 0);
        if (round >= resultIndex.size()) {
            return Semantics.BLOCK;
        }
        long index = resultIndex.get(round);
        if (index < element.oldest()) {
            // truncated away: skip to the oldest round still kept
            while (round < resultIndex.size() && resultIndex.get(round) < element.oldest()) {
                round++;
            }
            if (round >= resultIndex.size()) {
                nextRound.put(caller, round);
                return Semantics.BLOCK;
            }
            index = resultIndex.get(round);
        }
        nextRound.put(caller, round + 1);
        reads.set(round, reads.get(round) + 1);
        while (firstUnread < reads.size() && reads.get(firstUnread) >= n) {
            firstUnread++;
        }
        long first = firstUnread < resultIndex.size() ? resultIndex.get(firstUnread) : element.last() + 1;
        element.first(Math.max(element.oldest(), first));
        return index;
    }
}
