package dev.cumulus.bench.peers;

import dev.cumulus.bench.ChildIo;
import dev.cumulus.bench.Workload;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.rmi.server.ExportException;
import java.rmi.server.RMIServerSocketFactory;
import java.rmi.server.UnicastRemoteObject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@code java.rmi} round trips with the JDK's own registry ({@code LocateRegistry.createRegistry} on a free port of
 * the bind address, loopback or over hosts the host's address ({@code -Dbench.bind}); the object is exported there
 * too), {@code -Djava.rmi.server.hostname} the same address.
 *
 * <ul>
 *   <li>{@code server SELF}: creates the registry, binds {@code echo}, prints the registry's {@code host:port};</li>
 *   <li>{@code sync SELF ADDRESSES}: one call at a time, round robin over the servers;</li>
 *   <li>{@code async SELF ADDRESS}: {@code window} platform threads calling in a loop (RMI has no asynchronous call;
 *       this is how an RMI program keeps calls outstanding).</li>
 * </ul>
 */
public final class RmiPingPong {
    private RmiPingPong() {
    }

    /** Binds server sockets to the bind address only. */
    private record BoundSockets() implements RMIServerSocketFactory {
        @Override
        public ServerSocket createServerSocket(int port) throws IOException {
            return new ServerSocket(port, 128, InetAddress.getByName(Args.BIND));
        }
    }

    private static final class Service implements RmiEcho {
        @Override
        public byte[] echo(byte[] payload) {
            return payload;
        }
    }

    public static void main(String[] argv) throws Exception {
        ChildIo.exitWithParent();
        Args args = Args.parse(argv);
        Workload w = Workload.current();
        switch (args.role()) {
            case "server" -> serve();
            case "sync" -> sync(w, args.addresses());
            case "async" -> async(w, args.addresses()[0]);
            default -> throw new IllegalArgumentException("unknown role " + args.role());
        }
    }

    private static final List<Object> KEEP = new ArrayList<>();

    private static void serve() throws Exception {
        BoundSockets sockets = new BoundSockets();
        Registry registry = null;
        int port = 0;
        for (int attempt = 0; registry == null; attempt++) {
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName(Args.BIND))) {
                port = probe.getLocalPort();
            }
            try {
                registry = LocateRegistry.createRegistry(port, null, sockets);
            } catch (ExportException e) {
                if (attempt >= 10) {
                    throw e;
                }
            }
        }
        Service service = new Service();
        RmiEcho stub = (RmiEcho) UnicastRemoteObject.exportObject(service, 0, null, sockets);
        registry.rebind("echo", stub);
        KEEP.add(registry);
        KEEP.add(service);
        ChildIo.line("READY " + Args.address(port));
        Thread.currentThread().join(); // RMI's own threads serve; stop by signal
    }

    private static RmiEcho lookup(InetSocketAddress registry) throws Exception {
        return (RmiEcho) LocateRegistry.getRegistry(registry.getHostString(), registry.getPort()).lookup("echo");
    }

    private static void sync(Workload w, InetSocketAddress[] ports) throws Exception {
        RmiEcho[] servers = new RmiEcho[ports.length];
        byte[] payload = ChildIo.payload(w.payloadBytes());
        for (int i = 0; i < ports.length; i++) {
            servers[i] = lookup(ports[i]);
            servers[i].echo(payload);
        }
        ChildIo.readyAndAwaitGo("client");
        ChildIo.measureSync(w, i -> servers[i % servers.length].echo(payload));
    }

    private static void async(Workload w, InetSocketAddress port) throws Exception {
        RmiEcho server = lookup(port);
        byte[] payload = ChildIo.payload(w.payloadBytes());
        server.echo(payload);
        ChildIo.readyAndAwaitGo("client");
        AtomicLong completed = new AtomicLong();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ChildIo.AsyncWarmup warmup = new ChildIo.AsyncWarmup(w);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < w.window(); t++) {
            threads.add(Thread.ofPlatform().name("rmi-caller-" + t).start(() -> {
                try {
                    while (!stop.get()) {
                        server.echo(payload);
                        completed.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }));
        }
        while (!warmup.over()) {
            Thread.sleep(1);
        }
        long c0 = completed.get();
        long t0 = System.nanoTime();
        long end = t0 + w.asyncMeasureNs();
        long now;
        while ((now = System.nanoTime()) - end < 0) {
            Thread.sleep(1);
        }
        long c1 = completed.get();
        stop.set(true);
        ChildIo.asyncResult(c1 - c0, now - t0);
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("an RMI call failed", failure.get());
        }
    }
}
