package weave;

import dev.cumulus.Cloud;

/** A root with write methods of every return type and a few reads. */
public class Account implements Cloud.Root {
    private int i;
    private long l;
    private double d;
    private boolean b;
    private String s = "";
    private int[] arr = new int[0];
    private char c;
    private byte by;
    private short sh;
    private float f;

    public void setAll(int i, long l, double d, boolean b, String s, int[] arr, char c, byte by, short sh, float f) {
        this.i = i;
        this.l = l;
        this.d = d;
        this.b = b;
        this.s = s;
        this.arr = arr;
        this.c = c;
        this.by = by;
        this.sh = sh;
        this.f = f;
    }

    public int addInt(int v) {
        i += v;
        return i;
    }

    public long addLong(long v) {
        l += v;
        return l;
    }

    public double addDouble(double v) {
        d += v;
        return d;
    }

    public boolean flip() {
        b = !b;
        return b;
    }

    public String rename(String v) {
        String old = s;
        s = v;
        return old;
    }

    public int[] replace(int[] a) {
        int[] old = arr;
        arr = a;
        return old;
    }

    public char nextChar() {
        c++;
        return c;
    }

    public byte nextByte() {
        by++;
        return by;
    }

    public short nextShort() {
        sh++;
        return sh;
    }

    public float addFloat(float v) {
        f += v;
        return f;
    }

    /** Package-private: woven too; not a public root method, so any parameter type is allowed. */
    Object swap(Object v) {
        Object old = s;
        s = (String) v;
        return old;
    }

    public int readInt() {
        return i;
    }

    public long readLong() {
        return l;
    }

    public String summary() {
        return s + ":" + i + ":" + l + ":" + d + ":" + b + ":" + arr.length + ":" + c + ":" + by + ":" + sh + ":" + f;
    }
}
