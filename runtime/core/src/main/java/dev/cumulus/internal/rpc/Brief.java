package dev.cumulus.internal.rpc;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a method of a system service that never blocks and returns within microseconds (it runs a protocol step and
 * sends messages; it waits for nothing). Whichever thread polled its call runs it right after the poll — the node's
 * main thread, or a user's thread polling for its own reply — so it costs no hand-off to a call thread. Only for
 * Cumulus's own services: a user method that blocked here would hold up the thread that polled it.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Brief {
}
