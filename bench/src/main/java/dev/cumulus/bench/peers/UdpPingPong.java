package dev.cumulus.bench.peers;

import dev.cumulus.bench.ChildIo;
import dev.cumulus.bench.Workload;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;

/**
 * Blocking UDP ping-pong with {@link DatagramChannel} in blocking mode, on 127.0.0.1 or, over hosts, on the host's
 * address ({@code -Dbench.bind}): the plain-JDK floor of a round trip between two processes (the kernel wakes the
 * receiver; no polling, no idle CPU).
 *
 * <ul>
 *   <li>{@code server SELF}: binds an ephemeral port, prints its {@code host:port}, echoes every datagram to its
 *       sender;</li>
 *   <li>{@code sync SELF ADDRESSES}: one datagram at a time, round robin over the servers' {@code host:port};</li>
 *   <li>{@code async SELF ADDRESS}: sends {@code window} datagrams, then one more per reply.</li>
 * </ul>
 */
public final class UdpPingPong {
    private UdpPingPong() {
    }

    public static void main(String[] argv) throws Exception {
        ChildIo.exitWithParent();
        Args args = Args.parse(argv);
        Workload w = Workload.current();
        try (DatagramChannel ch = DatagramChannel.open()) {
            ch.configureBlocking(true);
            ch.bind(new InetSocketAddress(Args.BIND, 0));
            int port = ((InetSocketAddress) ch.getLocalAddress()).getPort();
            switch (args.role()) {
                case "server" -> serve(ch, port, w);
                case "sync" -> sync(ch, port, w, args.addresses());
                case "async" -> async(ch, port, w, args.addresses()[0]);
                default -> throw new IllegalArgumentException("unknown role " + args.role());
            }
        }
    }

    private static void serve(DatagramChannel ch, int port, Workload w) throws Exception {
        ChildIo.line("READY " + Args.address(port));
        ByteBuffer buf = ByteBuffer.allocateDirect(2048);
        while (true) {
            buf.clear();
            SocketAddress from = ch.receive(buf);
            buf.flip();
            ch.send(buf, from);
        }
    }

    private static void sync(DatagramChannel ch, int port, Workload w, InetSocketAddress[] servers) throws Exception {
        ByteBuffer out = ByteBuffer.allocateDirect(w.payloadBytes());
        out.put(ChildIo.payload(w.payloadBytes()));
        ByteBuffer in = ByteBuffer.allocateDirect(2048);
        ChildIo.readyAndAwaitGo(Integer.toString(port));
        ChildIo.measureSync(w, i -> {
            out.clear();
            out.putLong(0, i);
            ch.send(out, servers[i % servers.length]);
            in.clear();
            ch.receive(in);
        });
    }

    private static void async(DatagramChannel ch, int port, Workload w, InetSocketAddress server) throws Exception {
        ByteBuffer out = ByteBuffer.allocateDirect(w.payloadBytes());
        out.put(ChildIo.payload(w.payloadBytes()));
        ByteBuffer in = ByteBuffer.allocateDirect(2048);
        ChildIo.readyAndAwaitGo(Integer.toString(port));
        for (int i = 0; i < w.window(); i++) {
            out.clear();
            ch.send(out, server);
        }
        long received = 0;
        ChildIo.AsyncWarmup warmup = new ChildIo.AsyncWarmup(w);
        long end = 0;
        long c0 = -1;
        long t0 = 0;
        while (true) {
            in.clear();
            ch.receive(in);
            received++;
            long now = System.nanoTime();
            if (c0 < 0 && warmup.over()) {
                c0 = received;
                t0 = now;
                end = now + w.asyncMeasureNs();
            }
            if (c0 >= 0 && now - end >= 0) {
                ChildIo.asyncResult(received - c0, now - t0);
                return;
            }
            out.clear();
            ch.send(out, server);
        }
    }
}
