package corpus.cum201;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Violating: JDK collections reach threads that may run on other nodes. */
public class Escapes {
    static final Map<String, Integer> TOTALS = new HashMap<>(); // expect: CUM201

    static class Counter extends Thread {
        private final List<String> words;

        Counter(List<String> words) {
            this.words = words;
        }

        @Override
        public void run() {
            for (String w : words) {
                synchronized (TOTALS) {
                    TOTALS.merge(w, 1, Integer::sum);
                }
            }
        }
    }

    public static void main(String[] args) throws InterruptedException {
        ArrayList<String> words = new ArrayList<>(List.of("a", "b", "a"));
        Thread t = new Counter(words); // expect: CUM201
        t.start();
        t.join();
        StringBuilder report = new StringBuilder();
        Thread u = new Thread(() -> report.append(TOTALS.size())); // expect: CUM201
        u.start();
        u.join();
    }
}
