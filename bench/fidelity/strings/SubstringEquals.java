/** A new substring at every position, compared with equals. */
public class SubstringEquals {
    static long[] count(String text, String[] patterns) {
        long[] r = new long[patterns.length];
        for (int k = 0; k < patterns.length; k++) {
            String p = patterns[k];
            for (int i = 0; i + p.length() <= text.length(); i++)
                if (text.substring(i, i + p.length()).equals(p)) r[k]++;
        }
        return r;
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
