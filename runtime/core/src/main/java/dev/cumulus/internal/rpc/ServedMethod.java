package dev.cumulus.internal.rpc;

/**
 * What a node serves under one object id, as a standing cluster's access checks and administration see it: the
 * object's name and interface, the name of the method a call asks for ({@code null} when the object has no such
 * method), the object's {@link AccessRule} ({@code null}: the cluster's own object), whether it is one of the runtime's
 * own system services, and whether only a forwarding address is left of it here (it moved).
 */
public record ServedMethod(String objectName, Class<?> iface, String method, AccessRule rule, boolean system,
                           boolean forwardingOnly) {

    static ServedMethod of(ExportTable.Exported target, int methodId) {
        int index = target.methods().indexOf(methodId);
        return new ServedMethod(target.name(), target.iface(), index < 0 ? null : target.methods().method(index)
            .getName(), target.rule(), target.objectId() < ExportTable.FIRST_USER_ID, target.target() == null);
    }

    /**
     * Whether a standing cluster's client may call this method of a system service: creating objects, the name
     * service's binding and lookups (not its {@code moved}), and moving its own objects. The rest are the cluster's
     * own.
     */
    public boolean forClients() {
        if (!system || method == null) {
            return false;
        }
        if (iface == NameDirectory.class) {
            return !method.equals("moved");
        }
        if (iface == MigrationService.class) {
            return method.equals("migrate") || method.equals("followCalls");
        }
        return iface == RemoteFactory.class;
    }
}
