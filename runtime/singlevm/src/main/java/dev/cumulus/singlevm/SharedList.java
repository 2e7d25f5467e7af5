package dev.cumulus.singlevm;

import java.util.AbstractList;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * A growable array list whose methods hold its monitor; with {@code --single-vm} a shared object (see the package
 * comment). Made by {@link dev.cumulus.SingleVm#list()}.
 */
public final class SharedList<E> extends AbstractList<E> implements RandomAccess {
    private Object[] elements = new Object[8];
    private int size;

    @Override
    public synchronized int size() {
        return size;
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized E get(int index) {
        Objects.checkIndex(index, size);
        return (E) elements[index];
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized E set(int index, E element) {
        Objects.checkIndex(index, size);
        E old = (E) elements[index];
        elements[index] = element;
        return old;
    }

    @Override
    public synchronized boolean add(E element) {
        add(size, element);
        return true;
    }

    @Override
    public synchronized void add(int index, E element) {
        Objects.checkIndex(index, size + 1);
        if (size == elements.length) {
            Object[] grown = new Object[size * 2];
            System.arraycopy(elements, 0, grown, 0, size);
            elements = grown;
        }
        System.arraycopy(elements, index, elements, index + 1, size - index);
        elements[index] = element;
        size++;
    }

    @Override
    @SuppressWarnings("unchecked")
    public synchronized E remove(int index) {
        Objects.checkIndex(index, size);
        E old = (E) elements[index];
        System.arraycopy(elements, index + 1, elements, index, size - index - 1);
        elements[--size] = null;
        return old;
    }

    @Override
    public synchronized void clear() {
        for (int i = 0; i < size; i++) {
            elements[i] = null;
        }
        size = 0;
    }
}
