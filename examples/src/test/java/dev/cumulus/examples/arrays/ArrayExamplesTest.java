package dev.cumulus.examples.arrays;

import dev.cumulus.LocalCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(300)
class ArrayExamplesTest {
    @Test
    void matrixMultiplyOfFigure3MatchesTheSequentialProduct() {
        AtomicReference<MatrixMultiply.Result> result = new AtomicReference<>();
        LocalCluster.run(2, cluster -> {
            MatrixMultiply.Result r = MatrixMultiply.run(cluster, 48, 8, 2);
            if (r != null) {
                result.set(r);
            }
        });
        assertTrue(result.get().verified(), String.valueOf(result.get()));
    }

    @Test
    void blockCyclicLuFactorizationReproducesTheMatrix() {
        AtomicReference<LuFactorization.Result> result = new AtomicReference<>();
        LocalCluster.run(4, cluster -> {
            LuFactorization.Result r = LuFactorization.run(cluster, 32, 4);
            if (r != null) {
                result.set(r);
            }
        });
        assertTrue(result.get().verified(), String.valueOf(result.get()));
    }

    @Test
    void jacobiStencilMatchesTheSequentialSweeps() {
        AtomicReference<Jacobi.Result> result = new AtomicReference<>();
        LocalCluster.run(3, cluster -> {
            Jacobi.Result r = Jacobi.run(cluster, 36, 25);
            if (r != null) {
                result.set(r);
            }
        });
        assertTrue(result.get().verified(), String.valueOf(result.get()));
        assertTrue(result.get().center() > 0, String.valueOf(result.get()));
    }
}
