import java.util.HashMap;
import java.util.Map;
import java.util.PriorityQueue;

/**
 * The graph as Map<Integer, Map<Integer, Integer>> (boxed everywhere), Dijkstra with a HashMap of distances.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class HashMapGraph {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        Map<Integer, Map<Integer, Integer>> g = new HashMap<>();
        for (int[] e : edges) g.computeIfAbsent(e[0], k -> new HashMap<>()).merge(e[1], e[2], Math::min);
        int[][] out = new int[sources.length][n];
        for (int s = 0; s < sources.length; s++) {
            Map<Integer, Integer> dist = new HashMap<>();
            PriorityQueue<int[]> pq = new PriorityQueue<>((a, b) -> a[1] - b[1]);
            dist.put(sources[s], 0);
            pq.add(new int[] {sources[s], 0});
            while (!pq.isEmpty()) {
                int[] top = pq.poll();
                if (top[1] > dist.get(top[0])) continue;
                for (Map.Entry<Integer, Integer> e : g.getOrDefault(top[0], Map.of()).entrySet()) {
                    int nd = top[1] + e.getValue();
                    Integer old = dist.get(e.getKey());
                    if (old == null || nd < old) {
                        dist.put(e.getKey(), nd);
                        pq.add(new int[] {e.getKey(), nd});
                    }
                }
            }
            for (int v = 0; v < n; v++) out[s][v] = dist.getOrDefault(v, -1);
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
