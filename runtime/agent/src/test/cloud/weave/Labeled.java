package weave;

import dev.cumulus.Cloud;
import java.util.function.IntSupplier;

/** A cloud interface with a default read that calls out. */
public interface Labeled extends Cloud.Node {
    default int label(IntSupplier p) {
        return p.getAsInt() + 1;
    }
}
