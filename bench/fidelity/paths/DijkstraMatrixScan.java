/**
 * Dijkstra on an adjacency matrix, the next node found by scanning all nodes (O(n^2)).
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class DijkstraMatrixScan {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        final int inf = Integer.MAX_VALUE;
        int[][] w = new int[n][n];
        for (int[] row : w) java.util.Arrays.fill(row, inf);
        for (int[] e : edges) if (e[2] < w[e[0]][e[1]]) w[e[0]][e[1]] = e[2];
        int[][] out = new int[sources.length][];
        for (int s = 0; s < sources.length; s++) {
            int[] d = new int[n];
            boolean[] done = new boolean[n];
            java.util.Arrays.fill(d, inf);
            d[sources[s]] = 0;
            for (int it = 0; it < n; it++) {
                int u = -1;
                for (int v = 0; v < n; v++) if (!done[v] && d[v] != inf && (u < 0 || d[v] < d[u])) u = v;
                if (u < 0) break;
                done[u] = true;
                for (int v = 0; v < n; v++)
                    if (w[u][v] != inf && d[u] + w[u][v] < d[v]) d[v] = d[u] + w[u][v];
            }
            for (int v = 0; v < n; v++) if (d[v] == inf) d[v] = -1;
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
