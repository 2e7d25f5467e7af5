package corpus.cum202;

/** Violating: a program class with a native method (reported at the class line: a native method has no code). */
public class Native { // expect: CUM202
    native long checksum(byte[] data);
}
