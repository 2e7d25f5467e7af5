package dev.cumulus.array;

/** How the partitions of a shared array are given home nodes (DSA §2.2, §4.5.1). */
public enum Distribution {
    /**
     * Contiguous runs of partitions (row-major partition order) per node: node {@code n} of {@code N} is home to
     * partitions {@code [n*P/N, (n+1)*P/N)}. With one partition column this is a band of rows per node.
     */
    BLOCK,
    /**
     * Block-cyclic: nodes form a {@code PR x PC} grid ({@code PR*PC = N}, as square as possible); partition
     * {@code (pi, pj)} lives on grid node {@code (pi mod PR, pj mod PC)}. A 1-row array deals partitions out round
     * robin. Balances the work of algorithms that shrink their active region, such as LU factorization.
     */
    BLOCK_CYCLIC
}
