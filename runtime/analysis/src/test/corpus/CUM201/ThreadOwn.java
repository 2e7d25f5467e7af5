package corpus.cum201;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Conforming: each thread makes its own JDK objects; only values and program objects cross threads. */
public class ThreadOwn {
    static final class Result {
        int total;
    }

    static final Map<String, Integer> MAIN_ONLY = new HashMap<>();

    public static void main(String[] args) throws InterruptedException {
        Result result = new Result();
        List<String> words = List.of("a", "b", "a");
        Thread t = new Thread(() -> {
            Map<String, Integer> counts = new HashMap<>();
            for (String w : words) {
                counts.merge(w, 1, Integer::sum);
            }
            synchronized (result) {
                result.total = counts.size();
            }
        });
        t.start();
        t.join();
        MAIN_ONLY.put("total", result.total);
    }
}
