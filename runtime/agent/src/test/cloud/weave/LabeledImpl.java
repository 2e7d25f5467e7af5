package weave;

/** Inherits {@link Labeled}'s default read. */
public class LabeledImpl implements Labeled {
}
