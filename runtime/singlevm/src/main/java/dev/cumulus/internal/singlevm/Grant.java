package dev.cumulus.internal.singlevm;

/**
 * A monitor's home answers a request for it (docs/design/SINGLEVM.md, "Grants that carry images"): whether the
 * monitor is granted now, and with a grant the current images of the locked program object and of the small objects
 * and arrays its fields refer to that are homed there too, read at the home when the monitor was granted. The
 * acquirer fills its copies with them after its invalidation, so the reads that follow a lock need no fetch. Public
 * only because RPC needs it; not user API.
 *
 * @param now    whether the monitor was granted with this answer (else a {@code granted} call follows)
 * @param ids    the objects whose images follow, the locked object first
 * @param images their images, each as a fetch of the object would answer
 */
public record Grant(boolean now, long[] ids, ObjectImage[] images) {
    private static final long[] NO_IDS = {};
    private static final ObjectImage[] NO_IMAGES = {};

    /** A grant (or a refusal, {@code now == false}) that carries no image. */
    static Grant bare(boolean now) {
        return new Grant(now, NO_IDS, NO_IMAGES);
    }
}
