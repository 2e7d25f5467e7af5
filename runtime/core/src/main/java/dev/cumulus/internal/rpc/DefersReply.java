package dev.cumulus.internal.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a remotely callable method that may send its reply later ({@link DeferredReply#defer()}), like PastSet's
 * observe of an element with no tuple yet. Only such a method runs with its call recorded on its thread
 * ({@link DeferredReply#servingRemoteCall()}): every other call skips that bookkeeping (a thread-local write and two
 * objects per call). For Cumulus's own services.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface DefersReply {
}
