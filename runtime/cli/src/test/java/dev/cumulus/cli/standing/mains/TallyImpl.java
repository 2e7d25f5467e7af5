package dev.cumulus.cli.standing.mains;

/** Adds up what it is given. */
public class TallyImpl implements Tally {
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
