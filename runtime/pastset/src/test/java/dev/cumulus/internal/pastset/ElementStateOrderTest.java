package dev.cumulus.internal.pastset;

import dev.cumulus.CumulusException;
import dev.cumulus.NodeFailedException;
import dev.cumulus.internal.sched.Scheduler;
import dev.cumulus.pastset.Semantics;
import dev.cumulus.pastset.Template;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A home's order for each caller node's numbered operations ({@code ElementState}'s caller lines), driven directly in
 * the orders two polling threads could bring them in.
 */
@Timeout(30)
class ElementStateOrderTest {
    private final Template template = Template.of("ordered", int.class);
    private final TupleCodec codec = new TupleCodec(getClass().getClassLoader());
    private final ElementState state;
    /** Index (or failure) each numbered operation got, by label. */
    private final Map<String, Object> got = new ConcurrentHashMap<>();

    ElementStateOrderTest() {
        codec.allow(template);
        state = new ElementState("central/" + template.key(), "'ordered(int)'", template, codec, System::nanoTime,
            Scheduler.NONE);
    }

    private StoredTuple tuple(int value) {
        return codec.store(new Object[] {value}, "a test tuple");
    }

    private Consumer<ElementState.Outcome> ready(String label) {
        return o -> got.put(label, o.index());
    }

    private Consumer<Throwable> failed(String label) {
        return e -> got.put(label, e);
    }

    private ElementState.Outcome move(int node, long seq, int value) {
        String label = node + "#" + seq;
        return state.moveOrPark(tuple(value), new Semantics.Caller(node, 1), seq, true, ready(label), failed(label));
    }

    private List<Integer> observeAll(int count) {
        List<Integer> values = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ElementState.Outcome o = state.observe(new Semantics.Caller(0, 1), false);
            values.add((Integer) codec.fields(o.tuple(), "'ordered(int)'")[0]);
        }
        return values;
    }

    @Test
    void aCallerNodesNumberedMovesGoInInNumberOrderWhateverOrderTheyCome() {
        assertNull(move(3, 2, 302), "early: kept for its turn");
        assertNull(move(3, 1, 301), "early: kept for its turn");
        assertEquals(2, state.waiting());
        assertEquals(0L, move(3, 0, 300).index());
        assertEquals(1L, got.get("3#1"), "run right after its predecessor, its reply sent after the lock");
        assertEquals(2L, got.get("3#2"));
        assertEquals(0, state.waiting());
        assertEquals(List.of(300, 301, 302), observeAll(3));
    }

    @Test
    void eachCallerNodeHasItsOwnNumbersAndUnnumberedMovesPassKeptOnes() {
        assertNull(move(3, 1, 301));
        assertEquals(0L, move(4, 0, 400).index(), "node 4's first is its turn, whatever node 3 waits for");
        assertEquals(1L, move(3, -1, 399).index(), "an unnumbered move has no turn to wait for");
        assertEquals(2L, move(3, 0, 300).index());
        assertEquals(3L, got.get("3#1"));
        assertEquals(List.of(400, 399, 300, 301), observeAll(4));
    }

    @Test
    void aNumberedObserveThatComesEarlyRunsAfterTheMoveBeforeIt() {
        Semantics.Caller node3 = new Semantics.Caller(3, 1);
        assertNull(state.observeOrPark(node3, 1, ready("observe"), failed("observe")));
        assertEquals(0L, move(3, 0, 300).index());
        assertEquals(0L, got.get("observe"), "the observe ran after the move it followed, and got its tuple");
    }

    @Test
    void numberedMovesHeldByFlowControlGoInOneAtATimeInNumberOrder() {
        state.delta(1);
        assertNull(move(3, 2, 302));
        assertEquals(0L, move(3, 0, 300).index());
        assertNull(move(3, 1, 301), "held by flow control, its reply deferred");
        assertEquals(2, state.waiting(), "both held, the later one behind the earlier");
        assertEquals(List.of(300), observeAll(1));
        assertEquals(1L, got.get("3#1"));
        assertTrue(!got.containsKey("3#2"), "DeltaValue 1 lets one in per observe");
        assertEquals(List.of(301), observeAll(1));
        assertEquals(2L, got.get("3#2"));
    }

    @Test
    void aNodeFailureFailsTheKeptOperationsAndEveryLaterNumberedOne() {
        assertNull(move(3, 1, 301));
        state.fail(5, "node 5 failed");
        assertInstanceOf(NodeFailedException.class, got.get("3#1"));
        assertThrows(NodeFailedException.class, () -> move(3, 0, 300));
        assertThrows(NodeFailedException.class, () -> move(3, 2, 302));
        assertEquals(0, state.waiting());
    }

    @Test
    void anOperationThatFailsInItsTurnStillPassesTheTurnOn() {
        assertThrows(CumulusException.class, () -> state.redefine(template,
            Semantics.custom("com.example.NoSuchSemantics"), getClass().getClassLoader()));
        assertNull(move(3, 1, 301));
        assertThrows(CumulusException.class, () -> move(3, 0, 300), "the element is broken");
        assertInstanceOf(CumulusException.class, got.get("3#1"), "its successor ran, and failed the same way");
        state.redefine(template, Semantics.standard(), getClass().getClassLoader());
        assertEquals(0L, move(3, 2, 302).index(), "the line goes on where it was");
    }

    @Test
    void aNumberTheHomeHasSeenIsRefused() {
        assertEquals(0L, move(3, 0, 300).index());
        CumulusException twice = assertThrows(CumulusException.class, () -> move(3, 0, 300));
        assertTrue(twice.getMessage().contains("#0") && twice.getMessage().contains("ordered(int)"),
            twice.getMessage());
    }
}
