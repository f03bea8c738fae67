import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringTokenizer;

/**
 * StringTokenizer and LinkedHashMap.compute; Collections.sort on a list of entries.
 * Task: The k most frequent words of text (words: runs of letters between single spaces), most frequent first, ties in alphabetical order.
 */
public class TokenizerLinkedHashMap {
    static String[] top(String text, int k) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        StringTokenizer st = new StringTokenizer(text, " ");
        while (st.hasMoreTokens()) counts.compute(st.nextToken(), (w, c) -> c == null ? 1 : c + 1);
        List<Map.Entry<String, Integer>> e = new ArrayList<>(counts.entrySet());
        Collections.sort(e, (a, b) -> {
            int c = b.getValue().compareTo(a.getValue());
            return c != 0 ? c : a.getKey().compareTo(b.getKey());
        });
        String[] r = new String[Math.min(k, e.size())];
        for (int i = 0; i < r.length; i++) r[i] = e.get(i).getKey();
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
