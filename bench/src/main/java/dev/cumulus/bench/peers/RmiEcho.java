package dev.cumulus.bench.peers;

import java.rmi.Remote;
import java.rmi.RemoteException;

/** The {@code java.rmi} remote interface of the RPC suite's RMI peer. */
public interface RmiEcho extends Remote {
    byte[] echo(byte[] payload) throws RemoteException;
}
