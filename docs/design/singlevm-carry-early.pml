/*
 * Mutant of singlevm.pml's CARRY variant, kept so SingleVmModelCheckTest can show that check can fail: the exit sends
 * the release ahead of the write-backs it should carry, so the home may grant the monitor before it has stored the
 * previous holder's writes. The checker must find the violated assertion.
 */
#define CARRY
#define CARRY_EARLY
#include "singlevm.pml"
