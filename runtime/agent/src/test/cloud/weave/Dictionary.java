package weave;

import dev.cumulus.Cloud;
import java.util.HashMap;

/** Conforming: a cloud with a java.util.HashMap field, which both the check and the agent accept. */
public class Dictionary implements Cloud.Root {
    private final HashMap<String, Integer> words = new HashMap<>();

    public void define(String word, int meaning) {
        words.put(word, meaning);
    }

    public int meaning(String word) {
        return words.getOrDefault(word, -1);
    }
}
