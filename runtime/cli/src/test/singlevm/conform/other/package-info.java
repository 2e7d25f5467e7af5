/**
 * A conformance case's superclass in a package of its own: its protected and package-private fields are written through
 * a subclass in package {@code conform} ({@code conform.Corners}).
 */
package conform.other;
