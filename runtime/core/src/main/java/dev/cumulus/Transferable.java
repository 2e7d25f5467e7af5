package dev.cumulus;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Registers a user class for by-value transfer between nodes. Its non-static, non-transient fields are copied
 * (they must themselves be transferable); the class needs a no-argument constructor (any visibility).
 * Records and enums need no annotation. Java serialization is never used. A node decodes it when a signature reaches
 * it (see {@link Transfers}).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Transferable {
}
