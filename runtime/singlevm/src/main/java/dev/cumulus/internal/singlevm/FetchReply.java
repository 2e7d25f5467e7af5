package dev.cumulus.internal.singlevm;

/**
 * A home's answer to a fetch of a whole object or small array ({@link HeapService#fetchObject}): its image, and the
 * images of the small arrays and objects it refers to that the same home holds, a bounded breadth-first walk
 * ({@link Referred}), so that one round trip copies, say, an {@code int[][]} table with its rows. Each referred image
 * is read at the home in the same serving of the request as the object's own, so it is as fresh as a fetch of it sent
 * at the same moment would be (docs/design/SINGLEVM.md, "Referred objects"). Public only because RPC needs it; not
 * user API.
 *
 * @param image       the fetched object's fields or elements
 * @param referredIds the ids of the referred objects, in the walk's order (a referrer before what it refers to)
 * @param referred    their images, {@code referred[k]} of {@code referredIds[k]}
 */
public record FetchReply(ObjectImage image, long[] referredIds, ObjectImage[] referred) {
    /** An answer with no referred objects. */
    static FetchReply of(ObjectImage image) {
        return new FetchReply(image, new long[0], new ObjectImage[0]);
    }
}
