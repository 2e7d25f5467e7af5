package dev.cumulus.profiler.channel;

/**
 * One message of the profile channel; {@link #type()} tells which ({@value LiveWindow#TYPE},
 * {@value LiveFigures#TYPE} or {@value ProfileReport#TYPE}).
 */
public sealed interface ProfileRecord permits LiveWindow, LiveFigures, ProfileReport {
    /** The format version every record carries; changes when a field is renamed or removed. */
    int VERSION = 2;

    /** The record's kind: {@value LiveWindow#TYPE}, {@value LiveFigures#TYPE} or {@value ProfileReport#TYPE}. */
    String type();

    /** {@link #VERSION} when written by this profiler. */
    int version();
}
