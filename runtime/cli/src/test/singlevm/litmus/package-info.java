/** Java-memory-model litmus tests, a plain multithreaded program for {@code cumulus run --single-vm}. */
package litmus;
