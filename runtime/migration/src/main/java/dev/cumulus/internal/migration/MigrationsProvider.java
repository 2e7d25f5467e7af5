package dev.cumulus.internal.migration;

import dev.cumulus.internal.rpc.MigrationService;
import dev.cumulus.internal.rpc.ObjectMover;
import dev.cumulus.internal.rpc.RpcEngine;

import java.time.Duration;

/** Makes each node's {@link Migrations} at start and serves it as the node's {@link MigrationService}. */
public final class MigrationsProvider implements ObjectMover.Provider {
    @Override
    public ObjectMover create(RpcEngine engine, int size, ClassLoader loader, ObjectMover.Rebind rebind,
                              Duration rebalanceWindow) {
        Migrations migrations = new Migrations(engine, size, loader, rebind, rebalanceWindow);
        engine.exportSystem(MigrationService.OBJECT_ID, migrations, MigrationService.class);
        return migrations;
    }
}
