package dev.cumulus.internal.array;

import java.lang.reflect.Array;

/** The element type of a shared array; partitions are plain primitive arrays of this type. */
public enum ElementKind {
    DOUBLE(8, double.class), FLOAT(4, float.class), LONG(8, long.class), INT(4, int.class);

    final int bytes;
    final Class<?> type;

    ElementKind(int bytes, Class<?> type) {
        this.bytes = bytes;
        this.type = type;
    }

    Object newArray(int length) {
        return switch (this) {
            case DOUBLE -> new double[length];
            case FLOAT -> new float[length];
            case LONG -> new long[length];
            case INT -> new int[length];
        };
    }

    /** A table of {@code partitions} partition arrays of this kind ({@code double[][]}, ...), all null. */
    Object[] newTable(int partitions) {
        return switch (this) {
            case DOUBLE -> new double[partitions][];
            case FLOAT -> new float[partitions][];
            case LONG -> new long[partitions][];
            case INT -> new int[partitions][];
        };
    }

    int length(Object array) {
        return Array.getLength(array);
    }

    /** {@code "double"} for messages. */
    String javaName() {
        return type.getName();
    }
}
