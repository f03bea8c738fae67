/**
 * Bellman-Ford on an adjacency matrix: every round relaxes all n x n pairs until nothing changes.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class BellmanFordMatrix {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        int[][] w = new int[n][n];
        for (int[] e : edges)
            if (w[e[0]][e[1]] == 0 || e[2] < w[e[0]][e[1]]) w[e[0]][e[1]] = e[2];
        int[][] out = new int[sources.length][];
        for (int s = 0; s < sources.length; s++) {
            int[] d = new int[n];
            java.util.Arrays.fill(d, -1);
            d[sources[s]] = 0;
            boolean changed = true;
            while (changed) {
                changed = false;
                for (int u = 0; u < n; u++) {
                    if (d[u] < 0) continue;
                    for (int v = 0; v < n; v++) {
                        if (w[u][v] == 0) continue;
                        if (d[v] < 0 || d[u] + w[u][v] < d[v]) {
                            d[v] = d[u] + w[u][v];
                            changed = true;
                        }
                    }
                }
            }
            out[s] = d;
        }
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
