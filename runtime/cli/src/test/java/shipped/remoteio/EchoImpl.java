package shipped.remoteio;

import dev.cumulus.RemoteIO;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;

/** Shipped to the servers from the client (not on their classpath). */
public class EchoImpl implements Echo {
    @Override
    public void say(String tag, int lines) {
        for (int i = 0; i < lines; i++) {
            System.out.println(tag + " line " + i);
        }
        System.out.print(tag + " unfinished");
        System.err.println(tag + " to stderr");
    }

    @Override
    public String read(String path) {
        try (InputStream in = RemoteIO.openInput(path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "IOException: " + e.getMessage();
        }
    }

    @Override
    public void write(String path, String text) {
        try (OutputStream out = RemoteIO.openOutput(path)) {
            out.write(text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String firstLineOfStdin() {
        try {
            return new BufferedReader(new InputStreamReader(RemoteIO.stdin(), StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            return "IOException: " + e.getMessage();
        }
    }

    @Override
    public String ask(String host, int port, String text) {
        try (RemoteIO.Connection c = RemoteIO.connect(host, port)) {
            c.output().write((text + "\n").getBytes(StandardCharsets.UTF_8));
            c.output().flush();
            return new BufferedReader(new InputStreamReader(c.input(), StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            return "IOException: " + e.getMessage();
        }
    }

    @Override
    public String readOrMark(String marker) {
        System.out.println("reading stdin");
        try {
            return new BufferedReader(new InputStreamReader(RemoteIO.stdin(), StandardCharsets.UTF_8)).readLine();
        } catch (IOException e) {
            try {
                java.nio.file.Files.writeString(java.nio.file.Path.of(marker), "released: " + e.getMessage());
            } catch (IOException ignored) {
                // the test then times out, naming the marker it waited for
            }
            return null;
        }
    }

    @Override
    public String fromOwnThread(String path) {
        AtomicReference<String> said = new AtomicReference<>();
        Thread t = Thread.ofPlatform().start(() -> said.set(read(path)));
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return said.get();
    }
}
