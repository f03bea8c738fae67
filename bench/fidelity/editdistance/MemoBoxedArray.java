/**
 * Top-down recursion memoized in an Integer[][] (null: not known yet).
 * Task: The Levenshtein distance (insertions, deletions, replacements, each 1) of every pair a[i], b[i].
 */
public class MemoBoxedArray {
    static int[] distances(String[] a, String[] b) {
        int[] d = new int[a.length];
        for (int i = 0; i < a.length; i++) d[i] = dist(a[i], b[i]);
        return d;
    }

    static int dist(String s, String t) {
        return go(s, t, s.length(), t.length(), new Integer[s.length() + 1][t.length() + 1]);
    }

    static Integer go(String s, String t, int i, int j, Integer[][] memo) {
        if (i == 0) return j;
        if (j == 0) return i;
        if (memo[i][j] != null) return memo[i][j];
        Integer r;
        if (s.charAt(i - 1) == t.charAt(j - 1)) r = go(s, t, i - 1, j - 1, memo);
        else r = 1 + Math.min(go(s, t, i - 1, j - 1, memo), Math.min(go(s, t, i - 1, j, memo), go(s, t, i, j - 1, memo)));
        memo[i][j] = r;
        return r;
    }

    public static long run() {
        String[][] p = pairs();
        return checksum(distances(p[0], p[1]));
    }

    /**
     * The pairs every program of this corpus compares: 10 strings of 40 to
     * 63 letters of "abcd" from a fixed-seed LCG, each paired with a copy
     * changed by 3 to 14 random edits (replace, insert, delete).
     */
    static String[][] pairs() {
        String[][] p = new String[2][10];
        long s = 20261124;
        for (int k = 0; k < 10; k++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            int len = 40 + (int) ((s >>> 33) % 24);
            StringBuilder a = new StringBuilder();
            for (int i = 0; i < len; i++) {
                s = s * 6364136223846793005L + 1442695040888963407L;
                a.append("abcd".charAt((int) ((s >>> 33) & 3)));
            }
            StringBuilder b = new StringBuilder(a);
            int edits = 3 + k + (int) ((s >>> 40) % 5);
            for (int e = 0; e < edits; e++) {
                s = s * 6364136223846793005L + 1442695040888963407L;
                int at = (int) ((s >>> 33) % b.length()), op = (int) ((s >>> 50) % 3);
                char c = "abcd".charAt((int) ((s >>> 20) & 3));
                if (op == 0) b.setCharAt(at, c);
                else if (op == 1 && b.length() < 63) b.insert(at, c);
                else if (b.length() > 1) b.deleteCharAt(at);
            }
            p[0][k] = a.toString();
            p[1][k] = b.toString();
        }
        return p;
    }

    /** Depends on every distance and its place: equal for all correct programs. */
    static long checksum(int[] d) {
        long h = d.length;
        for (int x : d) h = h * 31 + x;
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
