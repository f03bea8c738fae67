/** Knuth-Morris-Pratt: the failure function, then one pass over the text. */
public class Kmp {
    static long[] count(String text, String[] patterns) {
        long[] r = new long[patterns.length];
        for (int k = 0; k < patterns.length; k++) r[k] = kmp(text, patterns[k]);
        return r;
    }

    static long kmp(String t, String p) {
        int m = p.length();
        int[] fail = new int[m];
        for (int i = 1, j = 0; i < m; i++) {
            while (j > 0 && p.charAt(i) != p.charAt(j)) j = fail[j - 1];
            if (p.charAt(i) == p.charAt(j)) j++;
            fail[i] = j;
        }
        long n = 0;
        for (int i = 0, j = 0; i < t.length(); i++) {
            while (j > 0 && t.charAt(i) != p.charAt(j)) j = fail[j - 1];
            if (t.charAt(i) == p.charAt(j)) j++;
            if (j == m) {
                n++;
                j = fail[j - 1];
            }
        }
        return n;
    }

    public static long run() {
        String t = text();
        return checksum(count(t, patterns(t)));
    }

    /** The text every program of this corpus searches: 6000 letters of "acgt" from a fixed-seed LCG. */
    static String text() {
        char[] c = new char[6000];
        long s = 20261124;
        for (int i = 0; i < c.length; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            c[i] = "acgt".charAt((int) ((s >>> 33) & 3));
        }
        return new String(c);
    }

    /** Eight patterns of 3 to 10 letters, each taken from the text (so each occurs). */
    static String[] patterns(String t) {
        String[] p = new String[8];
        for (int k = 0; k < p.length; k++) p[k] = t.substring(97 * k + 11, 97 * k + 14 + k);
        return p;
    }

    /** Depends on every count and its position: equal for all correct programs. */
    static long checksum(long[] counts) {
        long h = counts.length;
        for (long c : counts) h = h * 31 + c;
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
