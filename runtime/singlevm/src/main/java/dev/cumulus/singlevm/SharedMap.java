package dev.cumulus.singlevm;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A hash map with separate chaining whose methods hold its monitor; with {@code --single-vm} a shared object (see the
 * package comment). Keys need a value-based {@code hashCode}. Made by {@link dev.cumulus.SingleVm#map()}.
 */
public final class SharedMap<K, V> extends AbstractMap<K, V> {
    /** One key and value of a chain. */
    static final class Node<K, V> implements Map.Entry<K, V> {
        final int hash;
        final K key;
        V value;
        Node<K, V> next;

        Node(int hash, K key, V value, Node<K, V> next) {
            this.hash = hash;
            this.key = key;
            this.value = value;
            this.next = next;
        }

        @Override
        public K getKey() {
            return key;
        }

        @Override
        public V getValue() {
            return value;
        }

        @Override
        public V setValue(V v) {
            V old = value;
            value = v;
            return old;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Map.Entry<?, ?> e && Objects.equals(key, e.getKey())
                && Objects.equals(value, e.getValue());
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(key) ^ Objects.hashCode(value);
        }

        @Override
        public String toString() {
            return key + "=" + value;
        }
    }

    private Node<K, V>[] table = newTable(16);
    private int size;

    @SuppressWarnings("unchecked")
    private static <K, V> Node<K, V>[] newTable(int n) {
        return (Node<K, V>[]) new Node<?, ?>[n];
    }

    private static int hash(Object key) {
        int h = Objects.hashCode(key);
        return h ^ (h >>> 16);
    }

    private Node<K, V> find(Object key) {
        int h = hash(key);
        for (Node<K, V> n = table[h & (table.length - 1)]; n != null; n = n.next) {
            if (n.hash == h && Objects.equals(n.key, key)) {
                return n;
            }
        }
        return null;
    }

    @Override
    public synchronized int size() {
        return size;
    }

    @Override
    public synchronized boolean containsKey(Object key) {
        return find(key) != null;
    }

    @Override
    public synchronized V get(Object key) {
        Node<K, V> n = find(key);
        return n == null ? null : n.value;
    }

    @Override
    public synchronized V put(K key, V value) {
        Node<K, V> n = find(key);
        if (n != null) {
            return n.setValue(value);
        }
        if (size + 1 > table.length * 3 / 4) {
            grow();
        }
        int h = hash(key);
        int i = h & (table.length - 1);
        table[i] = new Node<>(h, key, value, table[i]);
        size++;
        return null;
    }

    @Override
    public synchronized V remove(Object key) {
        int h = hash(key);
        int i = h & (table.length - 1);
        Node<K, V> prev = null;
        for (Node<K, V> n = table[i]; n != null; prev = n, n = n.next) {
            if (n.hash == h && Objects.equals(n.key, key)) {
                if (prev == null) {
                    table[i] = n.next;
                } else {
                    prev.next = n.next;
                }
                size--;
                return n.value;
            }
        }
        return null;
    }

    @Override
    public synchronized void clear() {
        table = newTable(16);
        size = 0;
    }

    private void grow() {
        Node<K, V>[] old = table;
        Node<K, V>[] grown = newTable(old.length * 2);
        for (Node<K, V> head : old) {
            for (Node<K, V> n = head; n != null; ) {
                Node<K, V> next = n.next;
                int i = n.hash & (grown.length - 1);
                n.next = grown[i];
                grown[i] = n;
                n = next;
            }
        }
        table = grown;
    }

    /** The entries, a view: iterating it is not atomic (hold the map's monitor around it if that matters). */
    @Override
    public Set<Map.Entry<K, V>> entrySet() {
        return new Entries();
    }

    private final class Entries extends AbstractSet<Map.Entry<K, V>> {
        @Override
        public int size() {
            return SharedMap.this.size();
        }

        @Override
        public Iterator<Map.Entry<K, V>> iterator() {
            return new EntryIterator();
        }
    }

    private final class EntryIterator implements Iterator<Map.Entry<K, V>> {
        private int bucket;
        private Node<K, V> next;
        private Node<K, V> last;

        EntryIterator() {
            synchronized (SharedMap.this) {
                advance(null);
            }
        }

        private void advance(Node<K, V> from) {
            next = from == null ? null : from.next;
            while (next == null && bucket < table.length) {
                next = table[bucket++];
            }
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public Map.Entry<K, V> next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            synchronized (SharedMap.this) {
                last = next;
                advance(next);
                return last;
            }
        }

        @Override
        public void remove() {
            if (last == null) {
                throw new IllegalStateException("next() first");
            }
            SharedMap.this.remove(last.key);
            last = null;
        }
    }
}
