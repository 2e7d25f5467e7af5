package dev.cumulus.internal.singlevm;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * What one flush publishes to one other home (docs/design/SINGLEVM.md, "Homed where first published"): this node's
 * objects and arrays that had never left the node and that the flush's write-back to that home refers to. Each gets an
 * id homed there ({@link ObjectIds#named}) and goes whole in the same write-back, so the home keeps its master; once the
 * home acknowledged, the node's original becomes its copy ({@link Publisher#adopted}). Used by one flush, under its
 * lock.
 */
final class Publication {
    /** The write-back entry offset that marks an image as a whole object the home is to keep from now on. */
    static final int WHOLE = -1;

    final int home;
    /** The node's epoch before the write-back is sent: the originals hold at least what the home will hold. */
    final int epoch;
    private final ArrayDeque<Copy> toEncode = new ArrayDeque<>();
    final List<Copy> copies = new ArrayList<>();
    final List<Object[]> values = new ArrayList<>();
    final List<ObjectImage> images = new ArrayList<>();

    Publication(int home) {
        this.home = home;
        this.epoch = Epochs.current();
    }

    /** An original the write-back refers to, named {@code c.id}: its image is made by {@link #encodeAll}. */
    void add(Copy c) {
        toEncode.add(c);
    }

    /** Makes the whole image of every original added, and of those their entries refer to in turn. */
    void encodeAll(ObjectSpace space) {
        for (Copy c = toEncode.poll(); c != null; c = toEncode.poll()) {
            int n = c.length();
            Object[] v = new Object[n];
            ObjectImage image = ObjectImage.empty(c.className(), n);
            for (int i = 0; i < n; i++) {
                v[i] = c.get(i);
                ImageCodec.encode(space, this, image, i, c.typeOf(i), v[i]);
            }
            copies.add(c);
            values.add(v);
            images.add(image);
        }
    }
}
