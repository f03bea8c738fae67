import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Dijkstra with a TreeSet<Long> of distance << 32 | node: decrease-key as remove and add.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class DijkstraTreeSet {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        List<List<int[]>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
        for (int[] e : edges) adj.get(e[0]).add(e);
        int[][] out = new int[sources.length][];
        for (int s = 0; s < sources.length; s++) {
            int[] d = new int[n];
            java.util.Arrays.fill(d, -1);
            TreeSet<Long> set = new TreeSet<>();
            d[sources[s]] = 0;
            set.add((long) sources[s]);
            while (!set.isEmpty()) {
                long top = set.pollFirst();
                int u = (int) (top & 0xFFFFFFFFL);
                for (int[] e : adj.get(u)) {
                    int v = e[1], nd = d[u] + e[2];
                    if (d[v] < 0 || nd < d[v]) {
                        if (d[v] >= 0) set.remove(((long) d[v] << 32) | v);
                        d[v] = nd;
                        set.add(((long) nd << 32) | v);
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
