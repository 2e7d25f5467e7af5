package svit;

/**
 * Two threads on two nodes take two monitors in opposite orders and deadlock: the run ends on --timeout with a
 * thread dump that names both monitors, their homes and who holds and wants which.
 */
public class Deadlock {
    static final class Account {
        final String name;

        Account(String name) {
            this.name = name;
        }
    }

    static final class Mover extends Thread {
        private final Account from;
        private final Account to;
        private final Gate gate;

        Mover(String name, Account from, Account to, Gate gate) {
            super(name);
            this.from = from;
            this.to = to;
            this.gate = gate;
        }

        @Override
        public void run() {
            synchronized (from) {
                try {
                    gate.arrive(); // both hold their first monitor before either asks for its second
                } catch (InterruptedException e) {
                    return;
                }
                synchronized (to) {
                    System.out.println(getName() + " moved (no deadlock)");
                }
            }
        }
    }

    public static void main(String[] args) throws Exception {
        Account a = new Account("a");
        Account b = new Account("b");
        Gate gate = new Gate(2);
        Thread one = new Mover("mover-ab", a, b, gate); // node 1
        Thread two = new Mover("mover-ba", b, a, gate); // node 0
        one.start();
        two.start();
        System.out.println("started both movers");
        one.join();
        two.join();
    }
}
