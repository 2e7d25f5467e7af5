package dev.cumulus.internal.launch;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmptyStdinTest {
    @Test
    void aReadEndsAtOnceAndTheFirstOneSaysWhyTheInputIsEmpty() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        EmptyStdin in = new EmptyStdin("3", new PrintStream(err, true, StandardCharsets.UTF_8));

        assertEquals(0, in.available());
        assertEquals("", err.toString(StandardCharsets.UTF_8), "nothing is said before the program reads");
        assertEquals(-1, in.read());
        assertEquals(-1, in.read(new byte[8], 0, 8));
        assertEquals(0, in.read(new byte[8], 0, 0));
        assertEquals(0, in.readAllBytes().length);

        String said = err.toString(StandardCharsets.UTF_8);
        assertTrue(said.startsWith("cumulus: node 3 read System.in, which is empty"), said);
        assertEquals(1, said.lines().count(), "said once: " + said);
        assertThrows(IndexOutOfBoundsException.class, () -> in.read(new byte[2], 1, 2));
    }
}
