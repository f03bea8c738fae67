import java.util.ArrayList;
import java.util.List;

/**
 * Two ArrayLists, words and counts, searched with indexOf for every word; a bubble sort by count.
 * Task: The k most frequent words of text (words: runs of letters between single spaces), most frequent first, ties in alphabetical order.
 */
public class ParallelLists {
    static String[] top(String text, int k) {
        List<String> words = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        for (String w : text.split(" ")) {
            int i = words.indexOf(w);
            if (i < 0) {
                words.add(w);
                counts.add(1);
            } else {
                counts.set(i, counts.get(i) + 1);
            }
        }
        int n = words.size();
        for (int pass = 0; pass < Math.min(k, n); pass++) {   /* k bubble passes bring the k best to the front */
            for (int i = n - 1; i > pass; i--) {
                int c = counts.get(i), d = counts.get(i - 1);
                if (c > d || (c == d && words.get(i).compareTo(words.get(i - 1)) < 0)) {
                    words.set(i, words.set(i - 1, words.get(i)));
                    counts.set(i, counts.set(i - 1, c));
                }
            }
        }
        return words.subList(0, Math.min(k, n)).toArray(new String[0]);
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
