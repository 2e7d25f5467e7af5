/**
 * JDK Flight Recorder event classes the runtime emits (names {@code dev.cumulus.*}). No stack traces on hot paths;
 * high-frequency facts are counted and summarised rather than recorded one by one. Any thread commits events; the
 * package never reads recordings (the launcher and the profiler do).
 */
package dev.cumulus.internal.jfr;
