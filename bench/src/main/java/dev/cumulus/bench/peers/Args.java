package dev.cumulus.bench.peers;

import java.net.InetSocketAddress;
import java.util.Arrays;

/**
 * Command line of a peer program: {@code server SELF CLIENTS} or {@code sync|async SELF SERVERS} (comma lists: process
 * ids for the raw Aeron peer, {@code host:port} addresses for the others).
 */
record Args(String role, int self, String[] others) {
    /** The address this process's sockets bind to: {@code -Dbench.bind}, its host's address over hosts. */
    static final String BIND = System.getProperty("bench.bind", "127.0.0.1");

    static Args parse(String[] args) {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: server|sync|async SELF [TARGET,TARGET,...]");
        }
        String[] others = args.length > 2 && !args[2].isEmpty() ? args[2].split(",") : new String[0];
        return new Args(args[0], Integer.parseInt(args[1]), others);
    }

    /** The others as process ids. */
    int[] ids() {
        return Arrays.stream(others).mapToInt(Integer::parseInt).toArray();
    }

    /** The others as {@code host:port} socket addresses (IPv6 hosts in brackets). */
    InetSocketAddress[] addresses() {
        InetSocketAddress[] a = new InetSocketAddress[others.length];
        for (int i = 0; i < a.length; i++) {
            int colon = others[i].lastIndexOf(':');
            if (colon < 0) {
                throw new IllegalArgumentException("'" + others[i] + "' is not host:port");
            }
            String host = others[i].substring(0, colon).replace("[", "").replace("]", "");
            a[i] = new InetSocketAddress(host, Integer.parseInt(others[i].substring(colon + 1)));
        }
        return a;
    }

    /** {@code host:port} for a socket of this process on {@code port}. */
    static String address(int port) {
        return (BIND.contains(":") ? "[" + BIND + "]" : BIND) + ":" + port;
    }
}
