package dev.cumulus.internal.service;

import dev.cumulus.AccessDeniedException;
import dev.cumulus.CumulusException;
import dev.cumulus.Migration;
import dev.cumulus.Remote;
import dev.cumulus.internal.codec.RemoteRef;
import dev.cumulus.internal.rpc.AccessRule;
import dev.cumulus.internal.rpc.ExportTable;
import dev.cumulus.internal.rpc.RpcEngine;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.lang.management.OperatingSystemMXBean;
import java.util.Map;

/**
 * A server's {@link ClusterAdmin}: answers only the administrator (a client attached as {@link AccessRule#ADMIN}
 * whose admin proof {@link ClientAdmission#provesAdmin} checks), and logs every refusal. Runs on call threads.
 */
final class ClusterAdminService implements ClusterAdmin {
    private final RpcEngine engine;
    private final ClientAdmission admission;
    private final ClientObjects objects;
    private final long startedMs = System.currentTimeMillis();

    ClusterAdminService(RpcEngine engine, ClientAdmission admission, ClientObjects objects) {
        this.engine = engine;
        this.admission = admission;
        this.objects = objects;
    }

    private void check(byte[] proof, String what) {
        Integer caller = RpcEngine.systemCaller();
        if (caller == null || !admission.provesAdmin(caller, proof)) {
            String principal = caller == null ? null : admission.principal(caller);
            String who = caller == null ? "a server" : "client " + (principal == null ? "" : principal + " (id ")
                + caller + (principal == null ? "" : ")");
            System.err.println("cumulus: server " + engine.nodeId() + " refused " + what + " to " + who
                + ": it did not prove the cluster's admin credential");
            throw new AccessDeniedException("server " + engine.nodeId() + " refuses " + what + " to " + who
                + ": only the cluster's administrator (a client attached as '" + AccessRule.ADMIN + "' with the admin "
                + "credential in the cluster's owner-only state file, as 'cumulus ps' does) may ask for it");
        }
    }

    @Override
    public AdminStatus status(byte[] proof) {
        check(proof, "its status");
        objects.tick();
        OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();
        double cpu = os instanceof com.sun.management.OperatingSystemMXBean sun ? sun.getProcessCpuLoad() : -1;
        MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
        Map<Integer, Long> attached = admission.attached();
        AdminStatus.ClientStatus[] clients = attached.entrySet().stream()
            .filter(e -> !e.getKey().equals(RpcEngine.systemCaller()))
            .map(e -> new AdminStatus.ClientStatus(e.getKey(), admission.principal(e.getKey()), e.getValue()))
            .filter(c -> c.name() != null) // it left meanwhile
            .sorted(java.util.Comparator.comparingInt(AdminStatus.ClientStatus::client))
            .toArray(AdminStatus.ClientStatus[]::new);
        return new AdminStatus(engine.nodeId(), ProcessHandle.current().pid(), cpu, os.getSystemLoadAverage(),
            heap.getUsed(), heap.getMax(), ManagementFactory.getThreadMXBean().getThreadCount(),
            System.currentTimeMillis() - startedMs, clients,
            objects.status().toArray(AdminStatus.ObjectStatus[]::new));
    }

    @Override
    public void kill(byte[] proof, int client) {
        check(proof, "to put client " + client + " out");
        if (client < engine.servers()) {
            throw new CumulusException(client + " is a server of the cluster, not a client");
        }
        System.err.println("cumulus: server " + engine.nodeId() + ": the administrator put client " + client + " out");
        admission.detach(client);
    }

    @Override
    public void migrate(byte[] proof, long objectId, int node) {
        check(proof, "to move object #" + objectId);
        ExportTable.Exported e = engine.exports().get(objectId);
        if (e == null || e.target() == null || objectId < ExportTable.FIRST_USER_ID) {
            throw new CumulusException("server " + engine.nodeId() + " does not serve object #" + objectId
                + " ('cumulus ps' shows where each object is)");
        }
        Object proxy = engine.proxy(new RemoteRef(engine.nodeId(), objectId, e.iface().getName()), e.iface(),
            e.name());
        Remote.migrate(proxy, node, Migration.DELAYED);
    }
}
