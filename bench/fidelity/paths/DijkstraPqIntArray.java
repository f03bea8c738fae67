import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Dijkstra with a PriorityQueue<int[]> of {node, distance}, stale entries skipped; List<List<int[]>> adjacency.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class DijkstraPqIntArray {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        List<List<int[]>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
        for (int[] e : edges) adj.get(e[0]).add(new int[] {e[1], e[2]});
        int[][] out = new int[sources.length][];
        for (int s = 0; s < sources.length; s++) {
            int[] d = new int[n];
            Arrays.fill(d, Integer.MAX_VALUE);
            d[sources[s]] = 0;
            PriorityQueue<int[]> pq = new PriorityQueue<>((a, b) -> Integer.compare(a[1], b[1]));
            pq.add(new int[] {sources[s], 0});
            while (!pq.isEmpty()) {
                int[] top = pq.poll();
                int u = top[0];
                if (top[1] > d[u]) continue;
                for (int[] e : adj.get(u)) {
                    int nd = d[u] + e[1];
                    if (nd < d[e[0]]) {
                        d[e[0]] = nd;
                        pq.add(new int[] {e[0], nd});
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
