package shipped.admin;

/** Adds up what it is given. */
public class CounterImpl implements Counter {
    private int total;

    @Override
    public synchronized int add(int n) {
        return total += n;
    }

    @Override
    public long pid() {
        return ProcessHandle.current().pid();
    }
}
