import java.util.Arrays;

/**
 * Checks the one-task corpus bench/fidelity/paths: for every CLASS,
 * shortest(n, edges, sources) (distances from each source to every node of
 * a directed graph with weights 1 to 20, -1 where unreachable) equals the
 * checker's own answer on the corpus graph and on edge cases (parallel
 * edges, self-loops, unreachable nodes, one node, a long chain), every
 * class reads the same edges(), and run() returns the same value twice and
 * in every class.
 *
 * Usage: java -cp CLASSES:TOOLS ShortestPathCheck CLASS...
 */
public final class ShortestPathCheck {
    private ShortestPathCheck() { }

    /** The reference: Dijkstra with a linear scan, long distances. */
    static int[][] reference(int n, int[][] edges, int[] sources) {
        int[][] out = new int[sources.length][n];
        for (int s = 0; s < sources.length; s++) {
            long[] d = new long[n];
            boolean[] done = new boolean[n];
            Arrays.fill(d, Long.MAX_VALUE);
            d[sources[s]] = 0;
            for (int it = 0; it < n; it++) {
                int u = -1;
                for (int v = 0; v < n; v++) if (!done[v] && d[v] != Long.MAX_VALUE && (u < 0 || d[v] < d[u])) u = v;
                if (u < 0) break;
                done[u] = true;
                for (int[] e : edges) if (e[0] == u && d[u] + e[2] < d[e[1]]) d[e[1]] = d[u] + e[2];
            }
            for (int v = 0; v < n; v++) out[s][v] = d[v] == Long.MAX_VALUE ? -1 : (int) d[v];
        }
        return out;
    }

    public static void main(String[] args) throws Exception {
        Class<?>[] types = {int.class, int[][].class, int[].class};
        int[][] edges0 = null;
        int[][] chain = new int[30][];
        for (int i = 0; i < chain.length; i++) chain[i] = new int[] {i, i + 1, 1 + i % 20};
        Object[][] cases = {
            {4, new int[][] {{0, 1, 5}, {0, 1, 2}, {1, 1, 3}, {1, 2, 20}, {0, 2, 20}}, new int[] {0, 3, 2}},
            {1, new int[][] {{0, 0, 7}}, new int[] {0}},
            {31, chain, new int[] {0, 15, 30}},
            {5, new int[][] {{3, 4, 1}, {4, 3, 1}, {0, 1, 20}, {1, 0, 1}}, new int[] {4, 1}},
        };
        for (String name : args) {
            Class<?> c = Class.forName(name);
            int[][] edges = (int[][]) CorpusCheck.call(c, "edges", new Class<?>[0]);
            if (edges0 == null) edges0 = edges;
            CorpusCheck.same(c, "edges()", edges, edges0);
            int[] src = {0, 1, 2, 3, 4, 5};
            int[][] want = reference(150, edges, src);
            CorpusCheck.same(c, "distances on the corpus graph", CorpusCheck.call(c, "shortest", types, 150, edges, src), want);
            for (Object[] cs : cases)
                CorpusCheck.same(c, "distances on a " + cs[0] + "-node case",
                                 CorpusCheck.call(c, "shortest", types, cs[0], cs[1], cs[2]),
                                 reference((Integer) cs[0], (int[][]) cs[1], (int[]) cs[2]));
            long r = CorpusCheck.runTwice(c);
            int unreachable = 0;
            for (int[] row : want) for (int d : row) unreachable += d < 0 ? 1 : 0;
            System.out.printf("ok  %-22s %d unreachable, d(0,149) = %d  run() = %d%n", name, unreachable, want[0][149], r);
        }
        System.out.println(args.length + " classes: the same graph, the right distances, the same checksum");
    }
}
