package dev.cumulus.profiler;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JsonTest {
    @Test
    void writesAndReadsBack() {
        Json.Writer w = new Json.Writer();
        w.beginObject().value("s", "a\"b\\c\n\u0001").value("n", 3).value("d", 1.25).value("b", true)
            .beginArray("l").value(1).value("x").endArray().beginObject("o").endObject().endObject();
        Map<String, Object> m = Json.parseObject(w.toString());
        assertEquals("a\"b\\c\n\u0001", m.get("s"));
        assertEquals(3L, m.get("n"));
        assertEquals(1.25, m.get("d"));
        assertEquals(true, m.get("b"));
        assertEquals(List.of(1L, "x"), m.get("l"));
        assertEquals(Map.of(), m.get("o"));
    }

    @Test
    void rejectsMalformedInput() {
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\":1"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\":1} x"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[".repeat(100)));
        assertEquals("0", Json.number(Double.NaN));
        assertEquals("1.5", Json.number(1.5));
    }
}
