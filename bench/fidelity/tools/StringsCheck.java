/**
 * Checks the one-task corpus bench/fidelity/strings: for every CLASS,
 * count(text, patterns) (overlapping occurrences of each pattern) equals the
 * checker's own count on the corpus input and on edge cases (overlaps,
 * a pattern as long as the text, longer than it, absent, other letters),
 * every class reads the same input (text() and patterns()), and run()
 * returns the same value twice and in every class.
 *
 * Usage: java -cp CLASSES:TOOLS StringsCheck CLASS...
 */
public final class StringsCheck {
    private StringsCheck() { }

    /** The reference: String.regionMatches at every position. */
    static long[] reference(String t, String[] ps) {
        long[] r = new long[ps.length];
        for (int k = 0; k < ps.length; k++)
            for (int i = 0; i + ps[k].length() <= t.length(); i++)
                if (t.regionMatches(i, ps[k], 0, ps[k].length())) r[k]++;
        return r;
    }

    public static void main(String[] args) throws Exception {
        Class<?>[] types = {String.class, String[].class};
        String text0 = null;
        String[][] cases = {
            {"aaaaaa", "aa", "aaa", "aaaaaa", "aaaaaaa", "b"},
            {"abababa", "aba", "bab", "ab", "abababa", "ba"},
            {"the cat sat on the mat; the end", "the", "at", " ", "t", "mat;", "dog"},
            {"xyz", "xyzw", "z", "xyz"},
        };
        for (String name : args) {
            Class<?> c = Class.forName(name);
            String text = (String) CorpusCheck.call(c, "text", new Class<?>[0]);
            String[] ps = (String[]) CorpusCheck.call(c, "patterns", new Class<?>[] {String.class}, text);
            if (text0 == null) text0 = text;
            CorpusCheck.same(c, "text()", text, text0);
            long[] want = reference(text, ps);
            CorpusCheck.same(c, "count on the corpus input", CorpusCheck.call(c, "count", types, text, ps), want);
            for (String[] cs : cases) {
                String[] p = java.util.Arrays.copyOfRange(cs, 1, cs.length);
                CorpusCheck.same(c, "count on \"" + cs[0] + "\"", CorpusCheck.call(c, "count", types, cs[0], p),
                                 reference(cs[0], p));
            }
            long r = CorpusCheck.runTwice(c);
            System.out.printf("ok  %-20s counts %s  run() = %d%n", name, java.util.Arrays.toString(want), r);
        }
        System.out.println(args.length + " classes: the same input, the right counts, the same checksum");
    }
}
