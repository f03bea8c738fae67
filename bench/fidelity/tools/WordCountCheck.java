import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Checks the one-task corpus bench/fidelity/wordcount: for every CLASS,
 * top(text, k) (the k most frequent words, most frequent first, ties in
 * alphabetical order) equals the checker's own answer on the corpus input
 * and on edge cases (ties everywhere, k larger than the number of words,
 * one word), every class reads the same text(), and run() returns the same
 * value twice and in every class.
 *
 * Usage: java -cp CLASSES:TOOLS WordCountCheck CLASS...
 */
public final class WordCountCheck {
    private WordCountCheck() { }

    /** The reference: counts in a TreeMap, a stable sort by count, the first k. */
    static String[] reference(String text, int k) {
        Map<String, Integer> counts = new TreeMap<>();
        for (String w : text.split(" ")) counts.merge(w, 1, Integer::sum);
        List<Map.Entry<String, Integer>> e = new ArrayList<>(counts.entrySet());
        e.sort((a, b) -> b.getValue() - a.getValue());
        String[] r = new String[Math.min(k, e.size())];
        for (int i = 0; i < r.length; i++) r[i] = e.get(i).getKey();
        return r;
    }

    public static void main(String[] args) throws Exception {
        Class<?>[] types = {String.class, int.class};
        String text0 = null;
        Object[][] cases = {
            {"b a c a b c d", 3}, {"b a c a b c d", 10}, {"zz", 1}, {"x y x y z z w", 2},
            {"mi ka mi ka ka lo lo lo lo", 4},
        };
        for (String name : args) {
            Class<?> c = Class.forName(name);
            String text = (String) CorpusCheck.call(c, "text", new Class<?>[0]);
            if (text0 == null) text0 = text;
            CorpusCheck.same(c, "text()", text, text0);
            String[] want = reference(text, 20);
            CorpusCheck.same(c, "top 20 of the corpus input", CorpusCheck.call(c, "top", types, text, 20), want);
            for (Object[] cs : cases)
                CorpusCheck.same(c, "top " + cs[1] + " of \"" + cs[0] + "\"", CorpusCheck.call(c, "top", types, cs[0], cs[1]),
                                 reference((String) cs[0], (Integer) cs[1]));
            long r = CorpusCheck.runTwice(c);
            System.out.printf("ok  %-24s top %s...  run() = %d%n", name, String.join(" ", java.util.Arrays.copyOf(want, 3)), r);
        }
        System.out.println(args.length + " classes: the same input, the right top words, the same checksum");
    }
}
