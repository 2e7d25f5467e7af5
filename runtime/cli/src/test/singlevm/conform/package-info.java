/**
 * Conformance programs for {@code cumulus run --single-vm}: small, deterministic, data-race-free multithreaded
 * programs with no Cumulus API, whose output must be the same on one JVM and spread over the nodes.
 * {@link conform.Conform} runs the passing cases; {@code conform.limits} holds programs that hit a documented limit
 * (their error is checked), {@code conform.bugs} minimal programs that show a difference still to be fixed (not run by
 * default).
 */
package conform;
