package dev.cumulus.examples.matmul;

/** The worker object; {@code cluster.remoteNew} creates one per worker node. */
public final class MatrixWorkerImpl implements MatrixWorker {
    @Override
    public double[][] multiply(double[][] aRows, double[][] b) {
        return Matrices.multiply(aRows, b);
    }
}
