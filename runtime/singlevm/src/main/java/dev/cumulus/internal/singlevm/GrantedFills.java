package dev.cumulus.internal.singlevm;

/**
 * Per thread: the copies the images of its last monitor grant filled (docs/design/SINGLEVM.md, "Grants that carry
 * images"), which the thread may read although their state is below its own epoch. Those images were read at the
 * monitor's home after the grant, so after every write the grant must make visible: as fresh for the acquiring thread
 * as a fetch it sent after its acquire. Their state says less (the epoch the request was sent in) when another thread
 * of the node acquired while the request was out, because for that thread the images might be too old. The trust
 * ends with the thread's next acquire, and for a copy as soon as anything fills it again. Only the slow path of the
 * woven check asks; the fast path still compares the state with the node's threshold.
 */
final class GrantedFills {
    private record Trust(int epoch, Copy[] copies, int[] fills) {
    }

    private static final ThreadLocal<Trust> TRUST = new ThreadLocal<>();

    private GrantedFills() {
    }

    /**
     * The calling thread's acquire that started {@code epoch} filled the first {@code n} of {@code copies} from its
     * grant's images, leaving each with the fill count in {@code fills}.
     */
    static void filled(int epoch, Copy[] copies, int[] fills, int n) {
        if (n == 0) {
            TRUST.remove();
        } else {
            TRUST.set(new Trust(epoch, java.util.Arrays.copyOf(copies, n), java.util.Arrays.copyOf(fills, n)));
        }
    }

    /** Whether the calling thread may read copy {@code c} as its last grant's image filled it. */
    static boolean mayRead(Copy c) {
        Trust t = TRUST.get();
        if (t == null || t.epoch != Epochs.own()) {
            return false;
        }
        for (int k = 0; k < t.copies.length; k++) {
            if (t.copies[k] == c) {
                return t.fills[k] == c.fills;
            }
        }
        return false;
    }
}
