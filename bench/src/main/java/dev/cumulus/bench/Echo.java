package dev.cumulus.bench;

/** The remote object of the RPC suite: returns its argument (a 32-byte array). Public so every node can proxy it. */
public interface Echo {
    byte[] echo(byte[] payload);
}
