package corpus.cum106;

import dev.cumulus.Cloud;

class Account implements Cloud.Root {
    int balance = 0;

    public void deposit(int x) { // classify: write
        balance += x;
    }

    public int balance() { // classify: read
        return balance;
    }
}

/** Violating: reading and writing a root's field from outside the cloud bypasses the broadcast. */
public class Outside {
    static int peek(Account a) {
        return a.balance; // expect: CUM106
    }

    static void poke(Account a) {
        a.balance = 5; // expect: CUM106
    }
}
