package dev.cumulus.it;

import dev.cumulus.Cloud;

import java.util.ArrayList;
import java.util.List;

/** A cloud that takes a list of strings: transferable as declared, but an unchecked caller may smuggle anything in. */
public class Bag implements Cloud.Root {
    private final List<String> items = new ArrayList<>();

    public synchronized void addAll(List<String> more) {
        items.addAll(more);
    }

    public synchronized int size() {
        return items.size();
    }
}
