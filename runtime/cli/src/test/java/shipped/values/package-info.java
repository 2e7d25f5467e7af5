/**
 * A client's value classes for the system test of values whose classes only a client has (records, an enum, a
 * {@code @Transferable} class), passed to and returned from its objects on a standing cluster's servers, which do not
 * have them: outside {@code dev.cumulus}, since a client ships classes only outside the runtime's packages.
 */
package shipped.values;
