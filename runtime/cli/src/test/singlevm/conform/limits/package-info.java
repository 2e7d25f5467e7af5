/**
 * Programs that meet a documented limit of {@code cumulus run --single-vm} (docs/design/SINGLEVM.md, "Known
 * differences"): each is correct on one JVM; the conformance system test checks what the single-VM run does instead
 * (a clear error and a non-zero exit, or the documented difference).
 */
package conform.limits;
