import java.util.Arrays;

/**
 * Hashes words as character ranges of the text: a String only for each distinct word.
 * Task: The k most frequent words of text (words: runs of letters between single spaces), most frequent first, ties in alphabetical order.
 */
public class CharRangeTable {
    static String[] top(String text, int k) {
        char[] t = text.toCharArray();
        int cap = 2048;
        int[] start = new int[cap], len = new int[cap], count = new int[cap];
        Arrays.fill(start, -1);
        int distinct = 0;
        for (int i = 0; i <= t.length; ) {
            int j = i, h = 0;
            while (j < t.length && t[j] != ' ') h = 31 * h + t[j++];
            int slot = (h ^ (h >>> 16)) & (cap - 1);
            while (start[slot] >= 0 && !same(t, start[slot], len[slot], i, j - i)) slot = (slot + 1) & (cap - 1);
            if (start[slot] < 0) {
                start[slot] = i;
                len[slot] = j - i;
                distinct++;
            }
            count[slot]++;
            i = j + 1;
        }
        String[] words = new String[distinct];
        int[] cnt = new int[distinct];
        for (int s = 0, n = 0; s < cap; s++)
            if (start[s] >= 0) {
                words[n] = new String(t, start[s], len[s]);
                cnt[n++] = count[s];
            }
        Integer[] idx = new Integer[distinct];
        for (int i = 0; i < distinct; i++) idx[i] = i;
        Arrays.sort(idx, (a, b) -> cnt[a] != cnt[b] ? cnt[b] - cnt[a] : words[a].compareTo(words[b]));
        String[] r = new String[Math.min(k, distinct)];
        for (int i = 0; i < r.length; i++) r[i] = words[idx[i]];
        return r;
    }

    static boolean same(char[] t, int a, int la, int b, int lb) {
        if (la != lb) return false;
        for (int i = 0; i < la; i++) if (t[a + i] != t[b + i]) return false;
        return true;
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
