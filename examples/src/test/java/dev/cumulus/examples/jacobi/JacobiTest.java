package dev.cumulus.examples.jacobi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Jacobi relaxation as plain Java (SingleVmSystemTest in runtime/cli runs it with cumulus run --single-vm): the
 * threaded relaxation equals the sequential one, and the relaxation does what a Jacobi sweep does.
 */
@Timeout(60)
class JacobiTest {
    @Test
    void threadedRelaxationEqualsTheSequentialOne() throws Exception {
        Jacobi.main(new String[] {"40", "30", "3"}); // throws if the grids differ
        Jacobi.main(new String[] {"17", "5", "17"});
    }

    @Test
    void aSweepAveragesTheFourNeighbours() {
        double[][] g = Jacobi.sequential(3, 1);
        assertEquals(0.25, g[1][1]); // one neighbour (the top edge) is 1
        double[][] later = Jacobi.sequential(5, 200);
        assertTrue(later[1][2] > later[3][2], "heat flows down from the top edge");
        assertEquals(1.0, later[0][2]);
    }

    @Test
    void badSizesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Jacobi.main(new String[] {"8", "1", "9"}));
        assertThrows(IllegalArgumentException.class, () -> new Grid(2));
        assertThrows(IllegalArgumentException.class, () -> new MonitorBarrier(0));
    }
}
