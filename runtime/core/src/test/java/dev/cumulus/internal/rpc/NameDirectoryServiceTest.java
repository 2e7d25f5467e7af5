package dev.cumulus.internal.rpc;

import dev.cumulus.internal.codec.RemoteRef;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

class NameDirectoryServiceTest {
    @Test
    void theLatestMoveWinsWhateverOrderTheUpdatesArriveIn() throws InterruptedException {
        NameDirectoryService directory = new NameDirectoryService();
        assertNull(directory.bind("c", new RemoteRef(0, 16, "I"), null));
        directory.moved("c", new RemoteRef(2, 16, "I"), 2); // the second move is told first
        directory.moved("c", new RemoteRef(1, 16, "I"), 1);
        assertEquals(new RemoteRef(2, 16, "I"), directory.resolve("c", 0));
        directory.moved("c", new RemoteRef(3, 17, "I"), 3); // another object's move does not rebind the name
        assertEquals(new RemoteRef(2, 16, "I"), directory.resolve("c", 0));
        directory.moved("c", new RemoteRef(0, 16, "I"), 3);
        assertEquals(new RemoteRef(0, 16, "I"), directory.resolve("c", 0));
    }
}
