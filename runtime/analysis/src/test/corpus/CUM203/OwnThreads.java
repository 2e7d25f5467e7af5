package corpus.cum203;

/** Conforming: the program's own threads spread over the nodes. */
public class OwnThreads {
    public static void main(String[] args) throws InterruptedException {
        Thread[] workers = new Thread[4];
        for (int i = 0; i < workers.length; i++) {
            int n = i;
            workers[i] = new Thread(() -> System.out.println(n * n));
            workers[i].start();
        }
        for (Thread w : workers) {
            w.join();
        }
    }
}
