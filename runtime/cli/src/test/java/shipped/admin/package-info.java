/**
 * Client programs and objects for the administration system test, outside {@code dev.cumulus}: a standing cluster
 * ships classes of a client only outside the runtime's packages.
 */
package shipped.admin;
