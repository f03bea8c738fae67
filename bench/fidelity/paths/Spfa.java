import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * SPFA: Bellman-Ford driven by an ArrayDeque<Integer> of nodes whose distance fell.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class Spfa {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        List<List<int[]>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
        for (int[] e : edges) adj.get(e[0]).add(e);
        int[][] out = new int[sources.length][];
        for (int s = 0; s < sources.length; s++) {
            int[] d = new int[n];
            boolean[] queued = new boolean[n];
            java.util.Arrays.fill(d, Integer.MAX_VALUE);
            ArrayDeque<Integer> q = new ArrayDeque<>();
            d[sources[s]] = 0;
            q.add(sources[s]);
            queued[sources[s]] = true;
            while (!q.isEmpty()) {
                int u = q.poll();
                queued[u] = false;
                for (int[] e : adj.get(u)) {
                    if (d[u] + e[2] < d[e[1]]) {
                        d[e[1]] = d[u] + e[2];
                        if (!queued[e[1]]) {
                            queued[e[1]] = true;
                            q.add(e[1]);
                        }
                    }
                }
            }
            for (int v = 0; v < n; v++) if (d[v] == Integer.MAX_VALUE) d[v] = -1;
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
