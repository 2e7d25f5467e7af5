package dev.cumulus.cli.launch;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/** The last lines a node wrote (stdout and stderr together), for the report when it fails. Thread-safe. */
final class OutputTail {
    private final int capacity;
    private final ArrayDeque<String> lines = new ArrayDeque<>();

    OutputTail(int capacity) {
        this.capacity = capacity;
    }

    synchronized void add(String line) {
        if (capacity == 0) {
            return;
        }
        if (lines.size() == capacity) {
            lines.removeFirst();
        }
        lines.addLast(line);
    }

    synchronized List<String> lines() {
        return new ArrayList<>(lines);
    }
}
