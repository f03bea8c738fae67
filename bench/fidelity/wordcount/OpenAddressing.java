/**
 * A hand-written open-addressing hash table of String keys and int counts; selection of the top k.
 * Task: The k most frequent words of text (words: runs of letters between single spaces), most frequent first, ties in alphabetical order.
 */
public class OpenAddressing {
    static String[] top(String text, int k) {
        String[] keys = new String[1024];
        int[] counts = new int[1024];
        int size = 0;
        int from = 0;
        while (from <= text.length()) {
            int sp = text.indexOf(' ', from);
            if (sp < 0) sp = text.length();
            String w = text.substring(from, sp);
            if (size * 2 >= keys.length) {
                String[] ok = keys;
                int[] oc = counts;
                keys = new String[ok.length * 2];
                counts = new int[ok.length * 2];
                for (int i = 0; i < ok.length; i++) {
                    if (ok[i] == null) continue;
                    int j = ok[i].hashCode() & (keys.length - 1);
                    while (keys[j] != null) j = (j + 1) & (keys.length - 1);
                    keys[j] = ok[i];
                    counts[j] = oc[i];
                }
            }
            int j = w.hashCode() & (keys.length - 1);
            while (keys[j] != null && !keys[j].equals(w)) j = (j + 1) & (keys.length - 1);
            if (keys[j] == null) {
                keys[j] = w;
                size++;
            }
            counts[j]++;
            from = sp + 1;
        }
        String[] r = new String[Math.min(k, size)];
        boolean[] taken = new boolean[keys.length];
        for (int t = 0; t < r.length; t++) {
            int best = -1;
            for (int i = 0; i < keys.length; i++) {
                if (keys[i] == null || taken[i]) continue;
                if (best < 0 || counts[i] > counts[best] || (counts[i] == counts[best] && keys[i].compareTo(keys[best]) < 0))
                    best = i;
            }
            taken[best] = true;
            r[t] = keys[best];
        }
        return r;
    }

    public static long run() {
        return checksum(top(text(), 20));
    }

    /**
     * The text every program of this corpus counts: 4000 words separated by
     * single spaces, drawn from 600 made-up words (two to four syllables)
     * with a skewed, fixed-seed LCG choice, so that a few words are frequent.
     */
    static String text() {
        StringBuilder sb = new StringBuilder();
        long s = 20261124;
        String[] syl = {"ka", "lo", "mi", "ne", "su", "ta", "ri", "po", "de", "fa", "gu", "be"};
        for (int w = 0; w < 4000; w++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            double x = ((s >>> 11) & 0xFFFFF) / (double) 0x100000;
            int id = (int) (x * x * 600);
            if (w > 0) sb.append(' ');
            int n = 2 + id % 3;
            for (int k = 0, v = id; k < n; k++, v /= 12) sb.append(syl[v % 12]);
        }
        return sb.toString();
    }

    /** Depends on every word and its place: equal for all correct programs. */
    static long checksum(String[] top) {
        long h = top.length;
        for (String w : top) h = h * 31 + w.hashCode();
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
