/**
 * How a node's work meets its threads, as the rest of the runtime sees it: {@link dev.cumulus.internal.sched.Scheduler}
 * is the one interface the RPC engine, the replicated objects' delivery and the shared arrays use to hand work to the
 * thread that polled it and to wait for what a poll brings. The node implements it ({@code DutyCycle}); tests
 * implement it by hand.
 *
 * <p>Threads: any. Never: imports the transport or the node; holds state of its own.
 */
package dev.cumulus.internal.sched;
