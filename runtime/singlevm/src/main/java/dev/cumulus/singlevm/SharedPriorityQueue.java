package dev.cumulus.singlevm;

import java.util.AbstractQueue;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A binary-heap priority queue whose methods hold its monitor; with {@code --single-vm} a shared object (see the
 * package comment). Natural order when made without a comparator. Made by
 * {@link dev.cumulus.SingleVm#priorityQueue()}.
 */
public final class SharedPriorityQueue<E> extends AbstractQueue<E> {
    private final Comparator<? super E> order;
    private Object[] heap = new Object[16];
    private int size;

    /** @param order the order, or null for the elements' natural order */
    public SharedPriorityQueue(Comparator<? super E> order) {
        this.order = order;
    }

    @SuppressWarnings("unchecked")
    private int compare(Object a, Object b) {
        return order != null ? order.compare((E) a, (E) b) : ((Comparable<Object>) a).compareTo(b);
    }

    @Override
    public synchronized boolean offer(E e) {
        Objects.requireNonNull(e, "a priority queue holds no null");
        if (size == heap.length) {
            Object[] grown = new Object[size * 2];
            System.arraycopy(heap, 0, grown, 0, size);
            heap = grown;
        }
        int i = size++;
        heap[i] = e;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (compare(heap[i], heap[parent]) >= 0) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized E poll() {
        if (size == 0) {
            return null;
        }
        E top = (E) heap[0];
        heap[0] = heap[--size];
        heap[size] = null;
        int i = 0;
        while (true) {
            int l = 2 * i + 1;
            int r = l + 1;
            int least = i;
            if (l < size && compare(heap[l], heap[least]) < 0) {
                least = l;
            }
            if (r < size && compare(heap[r], heap[least]) < 0) {
                least = r;
            }
            if (least == i) {
                return top;
            }
            swap(i, least);
            i = least;
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized E peek() {
        return size == 0 ? null : (E) heap[0];
    }

    @Override
    public synchronized int size() {
        return size;
    }

    private void swap(int i, int j) {
        Object t = heap[i];
        heap[i] = heap[j];
        heap[j] = t;
    }

    /** The elements in no particular order, a snapshot taken under the monitor. */
    @Override
    @SuppressWarnings("unchecked")
    public Iterator<E> iterator() {
        Object[] snapshot;
        synchronized (this) {
            snapshot = new Object[size];
            System.arraycopy(heap, 0, snapshot, 0, size);
        }
        return new Iterator<>() {
            private int i;

            @Override
            public boolean hasNext() {
                return i < snapshot.length;
            }

            @Override
            public E next() {
                if (i >= snapshot.length) {
                    throw new NoSuchElementException();
                }
                return (E) snapshot[i++];
            }
        };
    }
}
