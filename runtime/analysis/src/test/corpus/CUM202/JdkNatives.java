package corpus.cum202;

/** Conforming: calling the JDK's native methods is fine. */
public class JdkNatives {
    long stamp() {
        return System.nanoTime() ^ Thread.currentThread().threadId();
    }
}
