package dev.cumulus.examples.colouring;

/**
 * The search states waiting for a searcher: a stack under the pool's monitor. A searcher takes one ({@link #take}
 * waits while the pool is empty but others still work) and says when it has finished it ({@link #done}); when the
 * pool is empty and nobody works, the search is over and every taker gets {@code null}.
 */
final class WorkPool {
    private Task[] tasks = new Task[64];
    private int size;
    private int working;

    synchronized void put(Task t) {
        if (size == tasks.length) {
            Task[] bigger = new Task[size * 2];
            System.arraycopy(tasks, 0, bigger, 0, size);
            tasks = bigger;
        }
        tasks[size++] = t;
        notifyAll();
    }

    synchronized Task take() throws InterruptedException {
        while (size == 0 && working > 0) {
            wait();
        }
        if (size == 0) {
            return null;
        }
        working++;
        Task t = tasks[--size];
        tasks[size] = null;
        return t;
    }

    synchronized void done() {
        working--;
        if (working == 0 && size == 0) {
            notifyAll();
        }
    }
}
