package dev.cumulus.internal.node;

import dev.cumulus.internal.transport.NodeTransport;

/** The {@link Doorbell} of a node or client over its transport's doorbells (IPC on Linux). */
record TransportDoorbell(NodeTransport transport) implements Doorbell {

    /** The transport's doorbell, or null when it has none (UDP, no futex). */
    static Doorbell of(NodeTransport transport) {
        return transport.hasDoorbell() ? new TransportDoorbell(transport) : null;
    }

    @Override
    public void announceSleep(boolean nap) {
        transport.announceSleep(nap);
    }

    @Override
    public void sleep(boolean nap, long timeoutNs) {
        transport.sleep(nap, timeoutNs);
    }

    @Override
    public boolean keep() {
        return transport.keepDoorbell();
    }

    @Override
    public boolean kept() {
        return transport.doorbellKept();
    }

    @Override
    public void napKept(long timeoutNs) {
        transport.napKept(timeoutNs);
    }

    @Override
    public void awake() {
        transport.awake();
    }

    @Override
    public void takeOver() {
        transport.takeOverDoorbell();
    }

    @Override
    public void wake() {
        transport.wakeSelf();
    }

    @Override
    public void waiting(int cpu) {
        transport.waiting(cpu);
    }

    @Override
    public void notWaiting(int cpu) {
        transport.notWaiting(cpu);
    }

    @Override
    public boolean waiterOn(int cpu) {
        return transport.waiterOn(cpu);
    }
}
