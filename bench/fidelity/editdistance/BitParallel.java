/**
 * Myers' bit-parallel algorithm (Hyyro's form): a column of the table in two longs (strings up to 64 letters).
 * Task: The Levenshtein distance (insertions, deletions, replacements, each 1) of every pair a[i], b[i].
 */
public class BitParallel {
    static int[] distances(String[] a, String[] b) {
        int[] d = new int[a.length];
        for (int i = 0; i < a.length; i++) d[i] = dist(a[i], b[i]);
        return d;
    }

    static int dist(String s, String t) {
        if (s.length() > 64) return Table.dist(s, t);
        int m = s.length();
        if (m == 0) return t.length();
        long[] peq = new long[128];
        for (int i = 0; i < m; i++) peq[s.charAt(i)] |= 1L << i;
        long pv = m == 64 ? -1L : (1L << m) - 1, mv = 0, high = 1L << (m - 1);
        int score = m;
        for (int j = 0; j < t.length(); j++) {
            long eq = peq[t.charAt(j)];
            long xv = eq | mv;
            long xh = (((eq & pv) + pv) ^ pv) | eq;
            long ph = mv | ~(xh | pv), mh = pv & xh;
            if ((ph & high) != 0) score++;
            else if ((mh & high) != 0) score--;
            ph = (ph << 1) | 1;
            mh <<= 1;
            pv = mh | ~(xv | ph);
            mv = ph & xv;
        }
        return score;
    }

    /** Longer strings: the plain table. */
    static final class Table {
        static int dist(String s, String t) {
            int[] row = new int[t.length() + 1];
            for (int j = 0; j < row.length; j++) row[j] = j;
            for (int i = 1; i <= s.length(); i++) {
                int diag = row[0];
                row[0] = i;
                for (int j = 1; j < row.length; j++) {
                    int up = row[j];
                    row[j] = Math.min(Math.min(up + 1, row[j - 1] + 1), diag + (s.charAt(i - 1) == t.charAt(j - 1) ? 0 : 1));
                    diag = up;
                }
            }
            return row[t.length()];
        }
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
