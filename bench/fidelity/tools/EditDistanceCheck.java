/**
 * Checks the one-task corpus bench/fidelity/editdistance: for every CLASS,
 * distances(a, b) (the Levenshtein distance of each pair) equals the
 * checker's own on the corpus pairs and on edge cases (empty strings,
 * equal strings, nothing in common, one string 64 letters long), every
 * class reads the same pairs(), and run() returns the same value twice and
 * in every class.
 *
 * Usage: java -cp CLASSES:TOOLS EditDistanceCheck CLASS...
 */
public final class EditDistanceCheck {
    private EditDistanceCheck() { }

    /** The reference: the full table, long-hand. */
    static int[] reference(String[] a, String[] b) {
        int[] r = new int[a.length];
        for (int k = 0; k < a.length; k++) {
            String s = a[k], t = b[k];
            int[][] d = new int[s.length() + 1][t.length() + 1];
            for (int i = 0; i <= s.length(); i++)
                for (int j = 0; j <= t.length(); j++) {
                    if (i == 0 || j == 0) {
                        d[i][j] = i + j;
                        continue;
                    }
                    int best = d[i - 1][j - 1] + (s.charAt(i - 1) == t.charAt(j - 1) ? 0 : 1);
                    best = Math.min(best, d[i - 1][j] + 1);
                    best = Math.min(best, d[i][j - 1] + 1);
                    d[i][j] = best;
                }
            r[k] = d[s.length()][t.length()];
        }
        return r;
    }

    public static void main(String[] args) throws Exception {
        Class<?>[] types = {String[].class, String[].class};
        String[][] pairs0 = null;
        String a64 = "abcd".repeat(16), b64 = "dcba".repeat(16);
        String[][] edge = {
            {"", "abc", "kitten", "flaw", "abcd", a64, a64, "a", "abcabc"},
            {"abc", "", "sitting", "lawn", "abcd", b64, a64.substring(1), "b", "cbacba"},
        };
        for (String name : args) {
            Class<?> c = Class.forName(name);
            String[][] p = (String[][]) CorpusCheck.call(c, "pairs", new Class<?>[0]);
            if (pairs0 == null) pairs0 = p;
            CorpusCheck.same(c, "pairs()", p, pairs0);
            int[] want = reference(p[0], p[1]);
            CorpusCheck.same(c, "distances of the corpus pairs", CorpusCheck.call(c, "distances", types, p[0], p[1]), want);
            CorpusCheck.same(c, "distances of the edge cases", CorpusCheck.call(c, "distances", types, edge[0], edge[1]),
                             reference(edge[0], edge[1]));
            long r = CorpusCheck.runTwice(c);
            System.out.printf("ok  %-16s distances %s  run() = %d%n", name, java.util.Arrays.toString(want), r);
        }
        System.out.println(args.length + " classes: the same pairs, the right distances, the same checksum");
    }
}
