package dev.cumulus.bench.replication;

import dev.cumulus.bench.ChildIo;

import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A UDP round-trip check of {@link Netns}' emulated wide-area links, one JVM per side, each started inside a cluster
 * namespace ({@code ip netns exec}):
 * <pre>
 * UdpPing echo ADDRESS PORT              binds, prints READY ADDRESS:PORT, echoes every datagram until stdin closes
 * UdpPing send ADDRESS PORT COUNT        COUNT round trips of a numbered 64-byte datagram, one at a time; prints
 *                                        RESULT udp.rtt.us count=.. min=.. p50=.. max=.. then DONE (timed-out
 *                                        datagrams are counted as lost=..)
 * </pre>
 * Threads: main (and ChildIo's parent watch).
 */
public final class UdpPing {
    private static final int TIMEOUT_MS = 2_000;

    private UdpPing() {
    }

    public static void main(String[] args) throws Exception {
        ChildIo.exitWithParent();
        if (args.length < 3 || !(args[0].equals("echo") || args[0].equals("send") && args.length == 4)) {
            System.err.println("usage: UdpPing echo ADDRESS PORT | UdpPing send ADDRESS PORT COUNT");
            System.exit(2);
        }
        InetSocketAddress at = new InetSocketAddress(args[1], Integer.parseInt(args[2]));
        if (args[0].equals("echo")) {
            echo(at);
        } else {
            send(at, Integer.parseInt(args[3]));
        }
    }

    private static void echo(InetSocketAddress at) throws Exception {
        try (DatagramSocket s = new DatagramSocket(at)) {
            ChildIo.line("READY " + at.getHostString() + ":" + at.getPort());
            DatagramPacket p = new DatagramPacket(new byte[2048], 2048);
            while (true) {
                s.receive(p);
                s.send(p);
                p.setLength(2048);
            }
        }
    }

    private static void send(InetSocketAddress to, int count) throws Exception {
        long[] us = new long[count];
        int got = 0;
        int lost = 0;
        try (DatagramSocket s = new DatagramSocket()) {
            s.setSoTimeout(TIMEOUT_MS);
            ByteBuffer out = ByteBuffer.allocate(64);
            DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
            for (int i = 0; i < count; i++) {
                out.putInt(0, i);
                long t0 = System.nanoTime();
                s.send(new DatagramPacket(out.array(), 64, to));
                try {
                    do { // a late echo of an earlier, lost round is not this one's
                        in.setLength(2048);
                        s.receive(in);
                    } while (in.getLength() < 4 || ByteBuffer.wrap(in.getData()).getInt(0) != i);
                    us[got++] = (System.nanoTime() - t0) / 1_000;
                } catch (SocketTimeoutException e) {
                    lost++;
                }
            }
        }
        long[] r = Arrays.copyOf(us, got);
        Arrays.sort(r);
        ChildIo.line("RESULT udp.rtt.us count=" + got + " lost=" + lost + (got == 0 ? ""
            : " min=" + r[0] + " p50=" + r[got / 2] + " max=" + r[got - 1]));
        ChildIo.line("DONE");
    }
}
