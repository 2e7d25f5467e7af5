/**
 * Minimal programs that give a different result under {@code cumulus run --single-vm} than on one JVM (bugs still
 * to be fixed); each prints what one JVM prints and what it saw. Not run by the conformance system test.
 */
package conform.bugs;
