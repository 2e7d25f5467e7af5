/*
 * Mutant of singlevm.pml, kept so SingleVmModelCheckTest can show the check can fail: a thread releases the monitor,
 * and writes the volatile, without waiting for the acknowledgements of its write-backs. The checker must find the
 * violated assertion (the next holder of the monitor fetches a field its home has not stored yet).
 */
#define EARLY_RELEASE
#include "singlevm.pml"
