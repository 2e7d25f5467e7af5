package corpus.cum207;

import java.lang.reflect.Field;

/** Conforming: the counter under its own monitor, and reflection through Field, which the weaving covers. */
public class SyncCounter {
    private int count;

    public synchronized void increment() {
        count++;
    }

    public synchronized boolean compareAndSet(int expected, int next) {
        if (count != expected) {
            return false;
        }
        count = next;
        return true;
    }

    public int read() throws ReflectiveOperationException {
        Field f = SyncCounter.class.getDeclaredField("count");
        synchronized (this) {
            return f.getInt(this);
        }
    }
}
