package {{package}};

/** Multiplies a band of rows of A by B. Remote objects are reached through plain interfaces like this one. */
public interface BandWorker {
    /** Returns {@code aRows × b}. Arguments and results travel by value. */
    double[][] multiply(double[][] aRows, double[][] b);
}
