package dev.cumulus.lsp.model;

import java.util.Arrays;

/** Converts between character offsets and 0-based line/column positions of one text. Immutable. */
public final class LineMap {
    private final String text;
    private final int[] lineStarts;

    public LineMap(String text) {
        this.text = text;
        int[] starts = new int[16];
        int n = 0;
        starts[n++] = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\n' || (c == '\r' && (i + 1 >= text.length() || text.charAt(i + 1) != '\n'))) {
                if (n == starts.length) {
                    starts = Arrays.copyOf(starts, n * 2);
                }
                starts[n++] = i + 1;
            }
        }
        lineStarts = Arrays.copyOf(starts, n);
    }

    public String text() {
        return text;
    }

    public int lineCount() {
        return lineStarts.length;
    }

    /** 0-based line of an offset. */
    public int line(int offset) {
        int i = Arrays.binarySearch(lineStarts, Math.max(0, Math.min(offset, text.length())));
        return i >= 0 ? i : -i - 2;
    }

    /** Offset of the start of a 0-based line (clamped). */
    public int lineStart(int line) {
        return lineStarts[Math.max(0, Math.min(line, lineStarts.length - 1))];
    }

    /** Offset just after the last character of a 0-based line, before its line break. */
    public int lineEnd(int line) {
        int end = line + 1 < lineStarts.length ? lineStarts[line + 1] : text.length();
        while (end > lineStart(line) && (text.charAt(end - 1) == '\n' || text.charAt(end - 1) == '\r')) {
            end--;
        }
        return end;
    }

    /** Offset of a 0-based line/column (clamped to the line). */
    public int offset(int line, int column) {
        if (line >= lineStarts.length) {
            return text.length();
        }
        return Math.min(lineStart(line) + Math.max(0, column), lineEnd(line));
    }

    /** The range of {@code [start, end)}. */
    public SourceRange range(int start, int end) {
        start = Math.max(0, Math.min(start, text.length()));
        end = Math.max(start, Math.min(end, text.length()));
        int sl = line(start);
        int el = line(end);
        return new SourceRange(sl, start - lineStarts[sl], el, end - lineStarts[el], start, end);
    }

    /** The non-blank text of a 0-based line (or the line start if it is blank). */
    public SourceRange trimmedLine(int line) {
        int s = lineStart(line);
        int e = lineEnd(line);
        while (s < e && Character.isWhitespace(text.charAt(s))) {
            s++;
        }
        while (e > s && Character.isWhitespace(text.charAt(e - 1))) {
            e--;
        }
        return range(s, e);
    }
}
