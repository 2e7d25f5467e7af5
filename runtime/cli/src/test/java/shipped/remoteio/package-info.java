/**
 * Client programs and remote objects for the remote I/O system test, outside {@code dev.cumulus}: a standing cluster
 * ships classes of a client only outside the runtime's packages.
 */
package shipped.remoteio;
