/**
 * The run's secret and what is derived from it: {@link dev.cumulus.internal.auth.RunSecret} (32 random bytes made by
 * the launcher, or by {@code LocalCluster}, for one run; its keys for the transport's frame MAC, payload encryption
 * and the live profile's lines come from it through HKDF-SHA256) and {@link dev.cumulus.internal.auth.OwnerOnly}
 * (directories and files only the run's user may open: the Aeron and run directories). Only the JDK's
 * {@code javax.crypto}; no cryptography of its own. Any thread; holds no state beyond the secret's bytes. Never prints
 * or writes the secret anywhere but the line a launcher hands a node on its stdin.
 */
package dev.cumulus.internal.auth;
