package dev.cumulus.internal.rpc;

/**
 * What an asynchronous ticket's proxy implements besides the remote object's interfaces: it hands back its
 * invocation handler, so that reading a ticket ({@code AsyncTicket.getResult}) costs one interface call, not a look at
 * the JDK's proxy class registry (a lookup and an allocation per ticket read). Not for programs.
 */
public interface TicketHandle {
    /** The ticket's invocation handler. */
    Object cumulusTicket();
}
