package dev.cumulus.cli.profile;

/** A remote object for the profile tests: a running total. */
public interface Counter {
    int add(int amount);

    /** The object behind the proxies. */
    class Impl implements Counter {
        private int total;

        @Override
        public synchronized int add(int amount) {
            total += amount;
            return total;
        }
    }
}
