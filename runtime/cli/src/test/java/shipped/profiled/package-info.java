/**
 * A client program for the per-client profile system test, outside {@code dev.cumulus}: a standing cluster ships
 * classes of a client only outside the runtime's packages.
 */
package shipped.profiled;
