/**
 * The shared collections and the spread thread pool behind {@link dev.cumulus.SingleVm}: plain Java classes that the
 * single-VM agent weaves like the program's own (this package is not one it skips), so their objects live in the
 * shared heap and their {@code synchronized} methods and {@code wait}/{@code notify} are cluster-wide monitors at the
 * node that made the object. Without {@code --single-vm} they are ordinary Java objects.
 *
 * <p>Threads: any of the program's; every state change holds the object's monitor. What it never does: keep a
 * reference to a mutable JDK object in a field that another node may read (a task's exception moves by value, as
 * exceptions do), or call into
 * the runtime directly (the woven code does that).
 */
package dev.cumulus.singlevm;
