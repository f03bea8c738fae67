/**
 * Floyd-Warshall: all pairs at once (O(n^3)), then the sources' rows.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class FloydWarshall {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        final int inf = Integer.MAX_VALUE / 2;
        int[][] d = new int[n][n];
        for (int i = 0; i < n; i++) {
            java.util.Arrays.fill(d[i], inf);
            d[i][i] = 0;
        }
        for (int[] e : edges) if (e[2] < d[e[0]][e[1]]) d[e[0]][e[1]] = e[2];
        for (int k = 0; k < n; k++) {
            int[] dk = d[k];
            for (int i = 0; i < n; i++) {
                int[] di = d[i];
                int dik = di[k];
                if (dik == inf) continue;
                for (int j = 0; j < n; j++)
                    if (dik + dk[j] < di[j]) di[j] = dik + dk[j];
            }
        }
        int[][] out = new int[sources.length][n];
        for (int s = 0; s < sources.length; s++)
            for (int v = 0; v < n; v++) out[s][v] = d[sources[s]][v] >= inf ? -1 : d[sources[s]][v];
        return out;
    }

    public static long run() {
        int[][] g = edges();
        return checksum(shortest(150, g, new int[] {0, 1, 2, 3, 4, 5}));
    }

    /**
     * The graph every program of this corpus searches: 150 nodes, 1200
     * directed edges {from, to, weight} with weights 1 to 20, from a
     * fixed-seed LCG (parallel edges and self-loops occur; every node is
     * reachable from these sources, tools/ShortestPathCheck.java also tries
     * graphs where some are not).
     */
    static int[][] edges() {
        int[][] e = new int[1200][];
        long s = 20261124;
        for (int i = 0; i < e.length; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            int r = (int) (s >>> 33);
            e[i] = new int[] {r % 150, (r >>> 8) % 150, 1 + (r >>> 16) % 20};
        }
        return e;
    }

    /** Depends on every distance and its place: equal for all correct programs. */
    static long checksum(int[][] dist) {
        long h = dist.length;
        for (int[] row : dist)
            for (int d : row) h = h * 31 + d;
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
