package dev.cumulus.examples.colouring;

/** The map: the 29 eastern-most states of the USA and their borders (Hyperion §5). */
final class EasternStates {
    static final String[] NAMES = {
        "ME", "NH", "VT", "MA", "RI", "CT", "NY", "NJ", "PA", "DE", "MD", "WV", "VA", "NC", "SC", "GA", "FL", "AL",
        "TN", "KY", "OH", "MI", "IN", "IL", "WI", "MS", "MO", "AR", "LA"};
    private static final String[] BORDERS = {
        "ME NH", "NH VT", "NH MA", "VT MA", "VT NY", "MA NY", "MA CT", "MA RI", "RI CT", "CT NY", "NY NJ", "NY PA",
        "NJ PA", "NJ DE", "PA DE", "PA MD", "PA WV", "PA OH", "DE MD", "MD VA", "MD WV", "WV VA", "WV KY", "WV OH",
        "VA KY", "VA TN", "VA NC", "NC TN", "NC GA", "NC SC", "SC GA", "GA FL", "GA AL", "GA TN", "FL AL", "AL TN",
        "AL MS", "TN KY", "TN MS", "TN AR", "TN MO", "KY MO", "KY IL", "KY IN", "KY OH", "OH IN", "OH MI", "MI IN",
        "MI WI", "IN IL", "IL MO", "IL WI", "MS AR", "MS LA", "MO AR", "AR LA"};

    private EasternStates() {
    }

    /** For each state, the states that border it (indexes into {@link #NAMES}). */
    static int[][] neighbours() {
        int n = NAMES.length;
        int[] degree = new int[n];
        for (String b : BORDERS) {
            String[] pair = b.split(" ");
            degree[index(pair[0])]++;
            degree[index(pair[1])]++;
        }
        int[][] adj = new int[n][];
        for (int i = 0; i < n; i++) {
            adj[i] = new int[degree[i]];
        }
        int[] filled = new int[n];
        for (String b : BORDERS) {
            String[] pair = b.split(" ");
            int x = index(pair[0]);
            int y = index(pair[1]);
            adj[x][filled[x]++] = y;
            adj[y][filled[y]++] = x;
        }
        return adj;
    }

    private static int index(String name) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(name)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no state " + name);
    }
}
