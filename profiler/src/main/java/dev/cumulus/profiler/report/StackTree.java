package dev.cumulus.profiler.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Stack samples merged into a tree (root: all samples; children: the outermost frames first), the model of a flame
 * graph: each node counts the samples whose stack passes through it ({@link #total()}) and those that ended in it
 * ({@link #self()}). Not thread-safe.
 */
public final class StackTree {
    private final String frame;
    private long total;
    private long self;
    private final Map<String, StackTree> children = new HashMap<>();

    /** An empty tree whose root is named {@code frame}. */
    public StackTree(String frame) {
        this.frame = frame;
    }

    /** Adds one sample; {@code framesRootFirst}: the outermost frame first, the running method last. */
    public void add(List<String> framesRootFirst) {
        StackTree at = this;
        at.total++;
        for (String f : framesRootFirst) {
            at = at.children.computeIfAbsent(f, StackTree::new);
            at.total++;
        }
        at.self++;
    }

    public String frame() { return frame; }
    /** Samples through this frame. */
    public long total() { return total; }
    /** Samples that ended in this frame (it was running). */
    public long self() { return self; }

    /** Children, most samples first, ties by name. */
    public List<StackTree> children() {
        List<StackTree> list = new ArrayList<>(children.values());
        list.sort(Comparator.comparingLong(StackTree::total).reversed().thenComparing(StackTree::frame));
        return list;
    }

    /** The child named {@code f}, or null. */
    public StackTree child(String f) {
        return children.get(f);
    }

    /** Self samples per frame over the whole tree (a frame on several paths sums them). */
    public Map<String, Long> selfByFrame() {
        Map<String, Long> out = new HashMap<>();
        collectSelf(out);
        out.remove(frame);
        return out;
    }

    private void collectSelf(Map<String, Long> out) {
        if (self > 0) {
            out.merge(frame, self, Long::sum);
        }
        children.values().forEach(c -> c.collectSelf(out));
    }
}
