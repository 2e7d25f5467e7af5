package corpus.cum106;

/** Conforming: outside code goes through the cloud's methods. */
public class Inside {
    static int audit(Account a) {
        a.deposit(1);
        return a.balance();
    }
}
