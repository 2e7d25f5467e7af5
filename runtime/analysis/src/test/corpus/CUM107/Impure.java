package corpus.cum107;

import dev.cumulus.Cloud;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Random;

class Clock {
    static long now() {
        return System.nanoTime();
    }
}

/** Violating: time, randomness, I/O, environment, identity hashes and threads inside a cloud. */
public class Impure implements Cloud.Root {
    private long stamp = 0;
    private int value = 0;

    public void touch() { stamp = System.currentTimeMillis(); } // expect: CUM107; classify: write

    public void roll() { value = new Random().nextInt(); } // expect: CUM107; classify: write

    public int hash() { return System.identityHashCode(this); } // expect: CUM107; classify: read

    public String load(String path) throws IOException { return Files.readString(Path.of(path)); } // expect: CUM107; classify: read

    public String home() { return System.getenv("HOME"); } // expect: CUM107; classify: read

    public String when() { return Instant.now().toString(); } // expect: CUM107; classify: read

    public void spawn() { new Thread(() -> { }).start(); } // expect: CUM107; classify: read

    public long later() { return Clock.now(); } // expect: CUM107; classify: read
}
