import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * HashMap<String, Long> (boxed longs), then k passes that each pick the best word left.
 * Task: The k most frequent words of text (words: runs of letters between single spaces), most frequent first, ties in alphabetical order.
 */
public class LongCountsSelect {
    static String[] top(String text, int k) {
        Map<String, Long> counts = new HashMap<>();
        for (String w : text.split(" ")) {
            Long c = counts.get(w);
            counts.put(w, c == null ? 1L : c + 1L);
        }
        String[] r = new String[Math.min(k, counts.size())];
        Set<String> taken = new HashSet<>();
        for (int t = 0; t < r.length; t++) {
            String best = null;
            long bestCount = -1;
            for (Map.Entry<String, Long> e : counts.entrySet()) {
                if (taken.contains(e.getKey())) continue;
                long c = e.getValue();
                if (c > bestCount || (c == bestCount && e.getKey().compareTo(best) < 0)) {
                    best = e.getKey();
                    bestCount = c;
                }
            }
            taken.add(best);
            r[t] = best;
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
