package dev.cumulus.profiler;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small JSON writer (a builder that appends to a {@link StringBuilder}) and reader (objects become
 * {@link LinkedHashMap}s, arrays {@link ArrayList}s, numbers {@link Double}s or {@link Long}s). Enough for the
 * profiler's own messages; the reader bounds nesting and rejects trailing garbage.
 */
public final class Json {
    private static final int MAX_DEPTH = 32;

    private Json() {
    }

    /** Appends {@code s} as a JSON string literal. */
    public static StringBuilder quote(StringBuilder sb, String s) {
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

    /** A number as JSON: integers without a fraction, others with up to 3 decimals; NaN and infinities as 0. */
    public static String number(double v) {
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

    /** Any tree of maps, lists, strings, numbers, booleans and nulls (what {@link #parse} returns) as JSON. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        writeValue(value, sb);
        return sb.toString();
    }

    private static void writeValue(Object o, StringBuilder sb) {
        if (o == null) {
            sb.append("null");
        } else if (o instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                quote(sb, String.valueOf(e.getKey())).append(':');
                writeValue(e.getValue(), sb);
            }
            sb.append('}');
        } else if (o instanceof List<?> l) {
            sb.append('[');
            for (int k = 0; k < l.size(); k++) {
                if (k > 0) {
                    sb.append(',');
                }
                writeValue(l.get(k), sb);
            }
            sb.append(']');
        } else if (o instanceof Number n) {
            sb.append(number(n.doubleValue()));
        } else if (o instanceof Boolean) {
            sb.append(o);
        } else {
            quote(sb, o.toString());
        }
    }

    /** A JSON object or array being written; keys and commas are handled. */
    public static final class Writer {
        private final StringBuilder sb;
        private final boolean[] first = new boolean[MAX_DEPTH + 1];
        private int depth;

        public Writer() {
            this(new StringBuilder());
        }

        public Writer(StringBuilder sb) {
            this.sb = sb;
        }

        private void comma() {
            if (depth > 0) {
                if (!first[depth]) {
                    sb.append(',');
                }
                first[depth] = false;
            }
        }

        private Writer key(String key) {
            comma();
            if (key != null) {
                quote(sb, key).append(':');
            }
            return this;
        }

        public Writer beginObject(String key) {
            key(key);
            sb.append('{');
            first[++depth] = true;
            return this;
        }

        public Writer beginObject() {
            return beginObject(null);
        }

        public Writer endObject() {
            depth--;
            sb.append('}');
            return this;
        }

        public Writer beginArray(String key) {
            key(key);
            sb.append('[');
            first[++depth] = true;
            return this;
        }

        public Writer beginArray() {
            return beginArray(null);
        }

        public Writer endArray() {
            depth--;
            sb.append(']');
            return this;
        }

        public Writer value(String key, String v) {
            key(key);
            if (v == null) {
                sb.append("null");
            } else {
                quote(sb, v);
            }
            return this;
        }

        public Writer value(String key, long v) {
            key(key);
            sb.append(v);
            return this;
        }

        public Writer value(String key, double v) {
            key(key);
            sb.append(number(v));
            return this;
        }

        public Writer value(String key, boolean v) {
            key(key);
            sb.append(v);
            return this;
        }

        public Writer value(String v) {
            return value(null, v);
        }

        public Writer value(long v) {
            return value(null, v);
        }

        public int length() {
            return sb.length();
        }

        @Override
        public String toString() {
            return sb.toString();
        }
    }

    /** Parses one JSON value; throws {@link IllegalArgumentException} with the offset for malformed input. */
    public static Object parse(String text) {
        Reader r = new Reader(text);
        r.ws();
        Object v = r.value(0);
        r.ws();
        if (r.pos != text.length()) {
            throw r.error("trailing characters");
        }
        return v;
    }

    /** Parses a JSON object. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> parseObject(String text) {
        Object v = parse(text);
        if (!(v instanceof Map)) {
            throw new IllegalArgumentException("not a JSON object");
        }
        return (Map<String, Object>) v;
    }

    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("bad JSON at offset " + pos + ": " + what);
        }

        void ws() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        Object value(int depth) {
            if (depth > MAX_DEPTH) {
                throw error("nested too deeply");
            }
            if (pos >= s.length()) {
                throw error("unexpected end");
            }
            char c = s.charAt(pos);
            switch (c) {
                case '{' -> {
                    pos++;
                    Map<String, Object> m = new LinkedHashMap<>();
                    ws();
                    if (peek('}')) {
                        return m;
                    }
                    do {
                        ws();
                        if (pos >= s.length() || s.charAt(pos) != '"') {
                            throw error("expected a key");
                        }
                        String k = string();
                        ws();
                        expect(':');
                        ws();
                        m.put(k, value(depth + 1));
                        ws();
                    } while (peek(','));
                    expect('}');
                    return m;
                }
                case '[' -> {
                    pos++;
                    List<Object> l = new ArrayList<>();
                    ws();
                    if (peek(']')) {
                        return l;
                    }
                    do {
                        ws();
                        l.add(value(depth + 1));
                        ws();
                    } while (peek(','));
                    expect(']');
                    return l;
                }
                case '"' -> {
                    return string();
                }
                case 't' -> {
                    literal("true");
                    return Boolean.TRUE;
                }
                case 'f' -> {
                    literal("false");
                    return Boolean.FALSE;
                }
                case 'n' -> {
                    literal("null");
                    return null;
                }
                default -> {
                    return number();
                }
            }
        }

        boolean peek(char c) {
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        void expect(char c) {
            if (!peek(c)) {
                throw error("expected '" + c + "'");
            }
        }

        void literal(String word) {
            if (!s.startsWith(word, pos)) {
                throw error("expected " + word);
            }
            pos += word.length();
        }

        Object number() {
            int start = pos;
            while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
                pos++;
            }
            String n = s.substring(start, pos);
            if (n.isEmpty()) {
                throw error("unexpected character");
            }
            try {
                if (n.indexOf('.') < 0 && n.indexOf('e') < 0 && n.indexOf('E') < 0) {
                    return Long.parseLong(n);
                }
                return Double.parseDouble(n);
            } catch (NumberFormatException e) {
                throw error("bad number " + n);
            }
        }

        String string() {
            pos++;
            StringBuilder sb = new StringBuilder();
            while (true) {
                if (pos >= s.length()) {
                    throw error("unterminated string");
                }
                char c = s.charAt(pos++);
                if (c == '"') {
                    return sb.toString();
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                if (pos >= s.length()) {
                    throw error("unterminated escape");
                }
                char e = s.charAt(pos++);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        try {
                            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
                        } catch (NumberFormatException ex) {
                            throw error("bad \\u escape");
                        }
                        pos += 4;
                    }
                    default -> throw error("bad escape \\" + e);
                }
            }
        }
    }

    /** A number from a parsed value ({@code Long} or {@code Double}), or {@code dflt}. */
    public static double num(Object v, double dflt) {
        return v instanceof Number n ? n.doubleValue() : dflt;
    }
}
