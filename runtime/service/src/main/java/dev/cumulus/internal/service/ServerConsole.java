package dev.cumulus.internal.service;

import java.io.PrintStream;
import java.util.Locale;

/**
 * {@code System.out} and {@code System.err} of a standing cluster's server: what a thread prints while it runs a call
 * of a client's object goes to that object's console, which sends it to the object's owner ({@link ClientObjects});
 * anything else goes to the server's own stream, as before. Each client object has its own console and lock, so a
 * slow client holds up only its own objects' printing.
 */
final class ServerConsole extends PrintStream {
    private final PrintStream own;
    private final boolean error;

    private ServerConsole(PrintStream own, boolean error) {
        super(own, true);
        this.own = own;
        this.error = error;
    }

    /** Routes {@code System.out} and {@code System.err} through consoles like this one (once per process). */
    static synchronized void install() {
        if (!(System.out instanceof ServerConsole)) {
            System.setOut(new ServerConsole(System.out, false));
        }
        if (!(System.err instanceof ServerConsole)) {
            System.setErr(new ServerConsole(System.err, true));
        }
    }

    private PrintStream target() {
        ClientObjects.Entry e = ClientObjects.current();
        return e == null ? own : e.console(error);
    }

    @Override
    public void flush() {
        target().flush();
    }

    @Override
    public void close() {
        target().flush(); // the process's own stream is not the program's to close
    }

    @Override
    public boolean checkError() {
        return target().checkError();
    }

    @Override
    public void write(int b) {
        target().write(b);
    }

    @Override
    public void write(byte[] buf, int off, int len) {
        target().write(buf, off, len);
    }

    @Override
    public void write(byte[] buf) {
        target().write(buf, 0, buf.length);
    }

    @Override
    public void writeBytes(byte[] buf) {
        target().write(buf, 0, buf.length);
    }

    @Override
    public void print(boolean b) {
        target().print(b);
    }

    @Override
    public void print(char c) {
        target().print(c);
    }

    @Override
    public void print(int i) {
        target().print(i);
    }

    @Override
    public void print(long l) {
        target().print(l);
    }

    @Override
    public void print(float f) {
        target().print(f);
    }

    @Override
    public void print(double d) {
        target().print(d);
    }

    @Override
    public void print(char[] s) {
        target().print(s);
    }

    @Override
    public void print(String s) {
        target().print(s);
    }

    @Override
    public void print(Object obj) {
        target().print(obj);
    }

    @Override
    public void println() {
        target().println();
    }

    @Override
    public void println(boolean x) {
        target().println(x);
    }

    @Override
    public void println(char x) {
        target().println(x);
    }

    @Override
    public void println(int x) {
        target().println(x);
    }

    @Override
    public void println(long x) {
        target().println(x);
    }

    @Override
    public void println(float x) {
        target().println(x);
    }

    @Override
    public void println(double x) {
        target().println(x);
    }

    @Override
    public void println(char[] x) {
        target().println(x);
    }

    @Override
    public void println(String x) {
        target().println(x);
    }

    @Override
    public void println(Object x) {
        target().println(x);
    }

    @Override
    public PrintStream printf(String format, Object... args) {
        target().printf(format, args);
        return this;
    }

    @Override
    public PrintStream printf(Locale l, String format, Object... args) {
        target().printf(l, format, args);
        return this;
    }

    @Override
    public PrintStream format(String format, Object... args) {
        target().format(format, args);
        return this;
    }

    @Override
    public PrintStream format(Locale l, String format, Object... args) {
        target().format(l, format, args);
        return this;
    }

    @Override
    public PrintStream append(CharSequence csq) {
        target().append(csq);
        return this;
    }

    @Override
    public PrintStream append(CharSequence csq, int start, int end) {
        target().append(csq, start, end);
        return this;
    }

    @Override
    public PrintStream append(char c) {
        target().append(c);
        return this;
    }
}
