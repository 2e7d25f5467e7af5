package conform;

/**
 * Strings across nodes: built per thread and published through shared fields and a {@code String[]}, compared with
 * {@code equals}, {@code compareTo} and hash codes, {@code switch} on strings, {@code String.valueOf} of every
 * primitive, {@code String.format} and {@code String.join}; literal identity ({@code ==}) across nodes is checked by
 * {@code StringIdentity}.
 */
final class Strings implements Conform.Case {
    static final class Board {
        final String[] words = new String[6];
        String joined;
        int switched;
        String valueOfs;
        int hashes;
    }

    static int kind(String s) {
        return switch (s) {
            case "alpha" -> 1;
            case "beta", "gamma" -> 2;
            case "Aa", "BB" -> 3; // equal hash codes
            default -> s.isEmpty() ? 0 : -1;
        };
    }

    @Override
    public void run(Conform.Out out) throws Exception {
        Board b = new Board();
        Thread[] ts = new Thread[3];
        for (int k = 0; k < 3; k++) {
            int me = k;
            ts[k] = new Thread(() -> {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i <= me; i++) {
                    sb.append((char) ('a' + me)).append(i);
                }
                b.words[2 * me] = sb.toString();
                b.words[2 * me + 1] = new String[] {"alpha", "BB", "zeta"}[me] + "-" + me;
            });
        }
        Conform.startJoin(ts);
        Thread reader = new Thread(() -> {
            StringBuilder joined = new StringBuilder();
            for (String w : b.words) {
                joined.append(joined.isEmpty() ? "" : "|").append(w);
            }
            b.joined = joined.toString();
            int s = 0;
            for (String w : b.words) {
                s = s * 10 + kind(w.substring(0, w.indexOf('-') < 0 ? w.length() : w.indexOf('-')));
                b.hashes += w.hashCode();
            }
            b.switched = s;
            b.valueOfs = String.valueOf(1) + String.valueOf(2L) + String.valueOf(3.5) + String.valueOf(4.5f)
                + String.valueOf('c') + String.valueOf(true) + String.valueOf((Object) null) + String.valueOf(
                new char[] {'x', 'y'}) + String.format("%05d|%-4s|%x", 42, "ab", 255) + "ünï€".length()
                + "text".repeat(2) + " a b ".strip() + "Mixed".toUpperCase() + "a,b,,c".split(",").length
                + String.join("/", "x", b.words[1]);
        });
        Conform.startJoin(reader);
        int hashes = 0;
        for (String w : b.words) {
            hashes += w.hashCode();
        }
        out.println(b.joined + " " + b.switched + " " + (hashes == b.hashes) + " " + b.valueOfs);
        out.println(b.words[0].compareTo(b.words[2]) + " " + b.words[3].equals("BB-1") + " " + kind("Aa") + " "
            + kind("") + " " + b.words[4].charAt(1) + " " + b.words[5].contains("zeta"));
    }
}
