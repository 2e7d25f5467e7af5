package dev.cumulus.profiler.channel;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Writes the channel's records as JSON with no library: what a node's live profiler uses, so a node JVM needs nothing
 * but this module and HdrHistogram. Record components become fields in declaration order (the names
 * {@link ProfileGson} reads); {@code null} components are left out; doubles are written with at most three decimals.
 * Handles records, maps, lists, strings, numbers and booleans: everything the records hold.
 */
public final class RecordWriter {
    private RecordWriter() {
    }

    /** {@code value} as one line of JSON. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder(256);
        value(sb, value);
        return sb.toString();
    }

    private static void value(StringBuilder sb, Object v) {
        switch (v) {
            case null -> sb.append("null");
            case Record r -> record(sb, r);
            case Map<?, ?> m -> {
                sb.append('{');
                boolean first = true;
                for (Map.Entry<?, ?> e : m.entrySet()) {
                    if (e.getValue() == null) {
                        continue;
                    }
                    sb.append(first ? "" : ",");
                    first = false;
                    quote(sb, String.valueOf(e.getKey())).append(':');
                    value(sb, e.getValue());
                }
                sb.append('}');
            }
            case List<?> l -> {
                sb.append('[');
                for (int i = 0; i < l.size(); i++) {
                    sb.append(i == 0 ? "" : ",");
                    value(sb, l.get(i));
                }
                sb.append(']');
            }
            case Double d -> sb.append(number(d));
            case Float f -> sb.append(number(f));
            case Number n -> sb.append(n.longValue());
            case Boolean b -> sb.append(b.booleanValue());
            default -> quote(sb, v.toString());
        }
    }

    private static void record(StringBuilder sb, Record r) {
        sb.append('{');
        boolean first = true;
        for (RecordComponent c : r.getClass().getRecordComponents()) {
            Object v;
            try {
                v = c.getAccessor().invoke(r);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("cannot read " + r.getClass().getName() + "." + c.getName(), e);
            }
            if (v == null) {
                continue;
            }
            sb.append(first ? "" : ",");
            first = false;
            quote(sb, c.getName()).append(':');
            value(sb, v);
        }
        sb.append('}');
    }

    /** A number as JSON: integers without a fraction, others with up to 3 decimals; NaN and infinities as 0. */
    static String number(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "0";
        }
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.3f", v);
        int end = s.length();
        while (s.charAt(end - 1) == '0') {
            end--;
        }
        return s.substring(0, s.charAt(end - 1) == '.' ? end - 1 : end);
    }

    private static StringBuilder quote(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x2028 || c == 0x2029) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }
}
