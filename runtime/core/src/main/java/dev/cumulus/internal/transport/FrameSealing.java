package dev.cumulus.internal.transport;

/** What the transport does to frames that travel over UDP (IPC frames stay on this host and are never sealed). */
public enum FrameSealing {
    /** Authenticated: a 16-byte HMAC-SHA256 tag and a counter (the default: frames between hosts are readable). */
    MAC,
    /** Authenticated and encrypted: AES-GCM with the tag and counter in the same place ({@code cumulus run --encrypt}). */
    ENCRYPT,
    /**
     * Neither: plain frames over UDP, accepted from anyone who can reach the port. Only for the benchmark that
     * measures what the MAC costs ({@code cumulus bench rpc --transport udp}); no user-facing option selects it.
     */
    NONE_FOR_BENCH
}
