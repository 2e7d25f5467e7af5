package dev.cumulus;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a remote object's class for safe mode (Babylon §4.2): its calls run one at a time in the order they arrive,
 * and a checkpoint of its state (a by-value copy of its fields) is taken before each, so that a
 * {@link Migration#SAFE_POINT} migration can stop a call at {@link Migration#point()}, restore the checkpoint and run
 * the call again on the new node. The checkpoint costs a copy of the state per call. Safe mode is the migration
 * module's ({@code dev.cumulus:cumulus-migration}, which {@code cumulus run} puts on the class path): without it,
 * exporting an object of such a class throws a {@link CumulusException} that names the dependency to add.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface SafeMode {
}
