/**
 * Conformance programs for {@code cumulus run --single-vm}: small, deterministic, data-race-free multithreaded
 * programs with no Cumulus API, whose output must be the same on one JVM and spread over the nodes.
 * {@link conform.Conform} runs the cases; {@code conform.limits} holds programs that meet a documented limit (the
 * system test checks the error of those that end the run).
 */
package conform;
