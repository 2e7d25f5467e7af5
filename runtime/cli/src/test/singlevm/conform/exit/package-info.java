/**
 * Programs that end with {@code System.exit}, {@code Runtime.exit} or {@code Runtime.halt} while other threads of
 * theirs still run or wait: one JVM ends with the status at once and prints nothing more; so must every node of a
 * single-VM run, whichever node the call runs on.
 */
package conform.exit;
