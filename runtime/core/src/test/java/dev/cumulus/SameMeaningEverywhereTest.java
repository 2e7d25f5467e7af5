package dev.cumulus;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A call through a proxy means the same wherever its object lives: arguments and results are copied by value, and
 * exceptions arrive the same way, on the object's own node too (Babylon, Java RMI).
 */
@Timeout(60)
class SameMeaningEverywhereTest {

    public interface Box {
        /** Sets {@code values[0]} to 99 in the callee's copy and returns the array it got. */
        int[] scribble(int[] values);

        /** The list the box keeps (the callee's own). */
        List<String> items();

        void add(String item);

        void refuse(String why) throws IOException;

        void crash(String why);
    }

    public static final class BoxImpl implements Box {
        private final List<String> items = new ArrayList<>();

        @Override
        public int[] scribble(int[] values) {
            values[0] = 99;
            return values;
        }

        @Override
        public synchronized List<String> items() {
            return items;
        }

        @Override
        public synchronized void add(String item) {
            items.add(item);
        }

        @Override
        public void refuse(String why) throws IOException {
            throw new IOException(why);
        }

        @Override
        public void crash(String why) {
            throw new IllegalStateException(why);
        }
    }

    /** What each node saw, by node id. */
    private record Seen(int[] caller, int[] returned, List<String> afterChange, String checked, String unchecked,
                        boolean sameArray) {
    }

    @Test
    void everyNodeSeesTheSameCopiesAndExceptionsAsTheNodeThatServesTheObject() {
        Map<Integer, Seen> seen = new ConcurrentHashMap<>();
        LocalCluster.run(3, cluster -> {
            if (cluster.nodeId() == 0) {
                cluster.export(new BoxImpl(), Box.class, "box");
            }
            cluster.barrier();
            Box box = cluster.lookup("box", Box.class);
            cluster.barrier();
            int[] mine = {1, 2, 3};
            int[] returned = box.scribble(mine);
            box.add("from " + cluster.nodeId());
            cluster.barrier();
            List<String> items = box.items();
            items.add("changed by the caller"); // a copy: the box's own list stays as it was
            IOException checked = assertThrows(IOException.class, () -> box.refuse("no"));
            IllegalStateException unchecked = assertThrows(IllegalStateException.class, () -> box.crash("boom"));
            seen.put(cluster.nodeId(), new Seen(mine.clone(), returned, box.items(), checked.getMessage(),
                unchecked.getMessage(), returned == mine));
            cluster.barrier();
        });
        for (int node = 0; node < 3; node++) {
            Seen s = seen.get(node);
            assertArrayEquals(new int[] {1, 2, 3}, s.caller(), "node " + node + ": the callee changed the caller's array");
            assertArrayEquals(new int[] {99, 2, 3}, s.returned(), "node " + node);
            assertTrue(!s.sameArray(), "node " + node + ": the result is the caller's own array");
            assertEquals(3, s.afterChange().size(), "node " + node + ": the caller changed the box's list: "
                + s.afterChange());
            assertEquals("no", s.checked(), "node " + node);
            assertEquals("boom", s.unchecked(), "node " + node);
        }
        assertEquals(seen.get(1).afterChange(), seen.get(0).afterChange());
    }

    public interface Holder {
        void hold(Object value);
    }

    public static final class HolderImpl implements Holder {
        @Override
        public void hold(Object value) {
        }
    }

    @Test
    void aValueThatCannotBeTransferredIsRefusedOnTheObjectsOwnNodeAsOnAnyOther() {
        Map<Integer, String> refusals = new ConcurrentHashMap<>();
        LocalCluster.run(2, cluster -> {
            if (cluster.nodeId() == 0) {
                cluster.export(new HolderImpl(), Holder.class, "holder");
            }
            cluster.barrier();
            Holder holder = cluster.lookup("holder", Holder.class);
            NotTransferableException e = assertThrows(NotTransferableException.class,
                () -> holder.hold(Thread.currentThread()));
            refusals.put(cluster.nodeId(), e.getMessage());
            cluster.barrier();
        });
        assertEquals(refusals.get(1), refusals.get(0));
    }
}
