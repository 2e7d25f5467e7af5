package shipped.remoteio;

/** A remote object that uses its client's console, files, standard input and network (RemoteIOSystemTest). */
public interface Echo {
    /** Prints {@code lines} numbered lines with {@code tag}, to System.out, and one to System.err. */
    void say(String tag, int lines);

    /** The text of the client's file {@code path}. */
    String read(String path);

    /** Writes {@code text} into the client's file {@code path}. */
    void write(String path, String text);

    /** The first line of the client's standard input. */
    String firstLineOfStdin();

    /** Sends {@code text} and a newline to {@code host}:{@code port} from the client's host and returns its answer. */
    String ask(String host, int port, String text);

    /**
     * Prints "reading stdin", then reads a line of the client's standard input; when that fails, writes why into the
     * file {@code marker} of the server's own machine.
     */
    String readOrMark(String marker);

    /** What RemoteIO says when a thread this object started itself asks for a file. */
    String fromOwnThread(String path);
}
