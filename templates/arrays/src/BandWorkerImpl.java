package {{package}};

/** The worker object; the master creates one on each worker node with {@code cluster.remoteNew}. */
public final class BandWorkerImpl implements BandWorker {
    @Override
    public double[][] multiply(double[][] aRows, double[][] b) {
        return Matrices.multiply(aRows, b);
    }
}
