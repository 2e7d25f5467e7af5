package litmus;

/**
 * Message passing: the writer writes six plain fields (two in an object it homes, two in one the reader homes, two in
 * one main homes), then signals; the reader, holding copies it read before the writer wrote (it says so through
 * {@code cached} first), waits for the signal and must then see every field written. Forbidden: any older value.
 */
final class MessagePassing extends WriterReader {
    enum Signal { VOLATILE, MONITOR, WAIT_NOTIFY }

    private final Signal signal;
    private final Pair atMain = new Pair();
    private final Flag cached = new Flag();
    private final Flag flag = new Flag();
    private final Box box = new Box();
    private Pair atWriter;
    private Pair atReader;

    MessagePassing(Signal signal) {
        super("mp-" + signal.name().toLowerCase().replace('_', '-'), "saw every write");
        this.signal = signal;
    }

    @Override
    void setUpWriter() {
        atWriter = new Pair();
    }

    @Override
    void setUpReader() {
        atReader = new Pair();
    }

    @Override
    void write(int r) {
        awaitAtLeast(cached, r);
        atWriter.x = r;
        atReader.x = r;
        atMain.x = r;
        atWriter.y = r;
        atReader.y = r;
        atMain.y = r;
        send(r);
    }

    @Override
    void read(int r) throws InterruptedException {
        long before = atWriter.x + atReader.x + atMain.x + atWriter.y + atReader.y + atMain.y;
        cached.v = r;
        await(r);
        seen.a = Math.min(Math.min(Math.min(atWriter.x, atReader.x), Math.min(atMain.x, atWriter.y)),
            Math.min(atReader.y, atMain.y));
        seen.b = before;
    }

    private void send(int r) {
        switch (signal) {
            case VOLATILE -> flag.v = r;
            case MONITOR -> {
                synchronized (box) {
                    box.v = r;
                }
            }
            case WAIT_NOTIFY -> {
                synchronized (box) {
                    box.v = r;
                    box.notifyAll();
                }
            }
        }
    }

    private void await(int r) throws InterruptedException {
        switch (signal) {
            case VOLATILE -> awaitAtLeast(flag, r);
            case MONITOR -> {
                while (true) {
                    synchronized (box) {
                        if (box.v >= r) {
                            return;
                        }
                    }
                    Thread.onSpinWait();
                }
            }
            case WAIT_NOTIFY -> {
                synchronized (box) {
                    while (box.v < r) {
                        box.wait();
                    }
                }
            }
        }
    }

    @Override
    void judge(int r) {
        judgeLowest(r, "the signal");
    }
}
