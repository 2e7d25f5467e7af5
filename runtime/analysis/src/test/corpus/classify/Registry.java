package corpus.classify;

import dev.cumulus.Cloud;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** Mutators of collections held in cloud fields are writes; mutating a local copy is not. */
public class Registry implements Cloud.Root {
    private final List<String> names = new ArrayList<>();
    private final Map<String, List<Integer>> scores = new HashMap<>();

    public void register(String n) { // classify: write
        names.add(n);
    }

    public int count() { // classify: read
        return names.size();
    }

    public List<String> sorted() { // classify: read
        List<String> copy = new ArrayList<>(names);
        copy.sort(null);
        return copy;
    }

    public void score(String n, int s) { // classify: write
        scores.computeIfAbsent(n, k -> new ArrayList<>()).add(s);
    }

    public void prune() { // classify: write
        Iterator<String> it = names.iterator();
        while (it.hasNext()) {
            if (it.next().isEmpty()) {
                it.remove();
            }
        }
    }

    public void reset() { // classify: write
        names.forEach(n -> scores.remove(n));
    }

    public int total(String n) { // classify: read
        int t = 0;
        for (int s : scores.getOrDefault(n, List.of())) {
            t += s;
        }
        return t;
    }
}
