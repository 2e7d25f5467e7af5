package dev.cumulus.profiler.figures;

import dev.cumulus.profiler.channel.ObjectFigures;

import java.util.Comparator;

/** What each kind of object counts ({@link ObjectFigures#operation()}) and the order figures are listed in. */
final class Operations {
    private Operations() {
    }

    /** The counted operation of {@code kind}, plural. */
    static String of(String kind) {
        return switch (kind) {
            case "cloud" -> "writes";
            case "remote" -> "calls";
            case "tuple" -> "operations";
            case "array" -> "misses";
            default -> "events";
        };
    }

    /** Busiest first: by rate, then by count, then by kind and name. */
    static final Comparator<ObjectFigures> BUSIEST_FIRST = Comparator
        .comparingDouble((ObjectFigures f) -> f.operationsPerSec() == null ? 0 : -f.operationsPerSec())
        .thenComparingLong(f -> -f.operations())
        .thenComparing(ObjectFigures::kind)
        .thenComparing(ObjectFigures::name);
}
