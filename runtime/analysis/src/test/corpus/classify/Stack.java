package corpus.classify;

import dev.cumulus.Cloud;

class StackNode implements Cloud.Node {
    StackNode prev;
    int value;

    StackNode(int d, StackNode p) {
        value = d;
        prev = p;
    }
}

/** Manta Figure 1: a replicated stack built from node objects. */
public class Stack implements Cloud.Root {
    private StackNode top = null;

    public synchronized void push(int d) { // classify: write
        top = new StackNode(d, top);
    }

    public synchronized int pop() { // classify: write
        StackNode temp = top;
        if (temp == null) {
            throw new IllegalStateException("empty");
        }
        top = temp.prev;
        return temp.value;
    }

    public synchronized int top() { // classify: read
        if (top == null) {
            throw new IllegalStateException("empty");
        }
        return top.value;
    }

    public synchronized void pushTwice(int d) { // classify: write
        push(d);
        push(d);
    }

    public int depth() { // classify: read
        int n = 0;
        for (StackNode s = top; s != null; s = s.prev) {
            n++;
        }
        return n;
    }
}
