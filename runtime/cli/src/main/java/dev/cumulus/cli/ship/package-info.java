/**
 * Class shipping: how a program's classes and resources reach the hosts of a run that cannot see the launcher's files.
 * The launcher describes its program's classpath as a {@link dev.cumulus.cli.ship.ClassManifest}: every entry (a jar
 * as it is, a class directory packed by {@link dev.cumulus.cli.ship.DirectoryJar} into a jar with fixed names, order
 * and times, so unchanged classes pack to the same bytes) named by the SHA-256 of its bytes
 * ({@link dev.cumulus.cli.ship.ContentHash}). {@link dev.cumulus.cli.ship.ClassSender} (launcher) and
 * {@link dev.cumulus.cli.ship.ClassReceiver} (host agent) speak the shipping protocol over the agent's stdin and stdout
 * ({@link dev.cumulus.cli.ship.ShipProtocol}): the host asks only for what its {@link dev.cumulus.cli.ship.ClassCache}
 * (an owner-only directory, {@code ~/.cache/cumulus/classes}) lacks, and an entry enters the cache only when its
 * length and hash are what the manifest said, by an atomic rename, so a cache never holds a partial or wrong entry.
 *
 * <p>Threads: the launcher ships to each host on a thread of its own; the agent receives on its main thread. Nothing
 * here keeps state between calls but the cache directory.
 *
 * <p>Never: trusts a name or a length from the other end without checking it (hashes are 64 hex digits, lengths and
 * counts are bounded, lines are bounded); writes outside the cache directory; leaves a partial file in the cache.
 */
package dev.cumulus.cli.ship;
