package dev.cumulus.bench.peers;

import java.util.Arrays;

/** Command line of a peer program: {@code server SELF CLIENTS} or {@code sync|async SELF SERVERS} (comma lists). */
record Args(String role, int self, int[] others) {
    static Args parse(String[] args) {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: server|sync|async SELF [ID,ID,...]");
        }
        int[] others = args.length > 2 && !args[2].isEmpty()
            ? Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray() : new int[0];
        return new Args(args[0], Integer.parseInt(args[1]), others);
    }
}
