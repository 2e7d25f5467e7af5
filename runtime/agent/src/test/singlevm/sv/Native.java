package sv;

/** The single-VM mode refuses program classes with native methods. */
public class Native {
    public static native int peek();
}
