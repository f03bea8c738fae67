import java.util.ArrayList;
import java.util.List;

/**
 * A trie of 26-way int arrays counts the words; a recursive walk collects them in order.
 * Task: The k most frequent words of text (words: runs of letters between single spaces), most frequent first, ties in alphabetical order.
 */
public class TrieRecursive {
    static int[][] next;
    static int[] end;
    static int nodes;

    static String[] top(String text, int k) {
        next = new int[text.length() + 1][];
        end = new int[text.length() + 1];
        next[0] = new int[26];
        nodes = 1;
        int node = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : ' ';
            if (c == ' ') {
                end[node]++;
                node = 0;
                continue;
            }
            if (next[node][c - 'a'] == 0) {
                next[nodes] = new int[26];
                next[node][c - 'a'] = nodes++;
            }
            node = next[node][c - 'a'];
        }
        List<String> words = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        walk(0, new StringBuilder(), words, counts);
        /* words are in alphabetical order: a stable insertion by count keeps ties so */
        List<String> best = new ArrayList<>();
        List<Integer> bestCount = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            int pos = best.size();
            while (pos > 0 && bestCount.get(pos - 1) < counts.get(i)) pos--;
            if (pos < k) {
                best.add(pos, words.get(i));
                bestCount.add(pos, counts.get(i));
                if (best.size() > k) {
                    best.remove(k);
                    bestCount.remove(k);
                }
            }
        }
        return best.toArray(new String[0]);
    }

    static void walk(int node, StringBuilder prefix, List<String> words, List<Integer> counts) {
        if (end[node] > 0) {
            words.add(prefix.toString());
            counts.add(end[node]);
        }
        for (int c = 0; c < 26; c++) {
            if (next[node][c] == 0) continue;
            prefix.append((char) ('a' + c));
            walk(next[node][c], prefix, words, counts);
            prefix.setLength(prefix.length() - 1);
        }
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
