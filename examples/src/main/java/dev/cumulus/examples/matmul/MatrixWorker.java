package dev.cumulus.examples.matmul;

/** A worker that multiplies a band of rows of A by the whole of B (Babylon §5). */
public interface MatrixWorker {
    /** Returns {@code aRows × b}. */
    double[][] multiply(double[][] aRows, double[][] b);
}
