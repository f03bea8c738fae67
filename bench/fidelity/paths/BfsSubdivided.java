/**
 * Breadth-first search on the graph with every edge of weight w cut into w unit steps.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class BfsSubdivided {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        int total = n;
        for (int[] e : edges) total += e[2] - 1;
        int[] head = new int[total], next = new int[total + edges.length * 20], to = new int[next.length];
        java.util.Arrays.fill(head, -1);
        int m = 0, extra = n;
        for (int[] e : edges) {
            int prev = e[0];
            for (int k = 1; k < e[2]; k++) {       /* intermediate nodes extra, extra + 1, ... */
                to[m] = extra; next[m] = head[prev]; head[prev] = m++;
                prev = extra++;
            }
            to[m] = e[1]; next[m] = head[prev]; head[prev] = m++;
        }
        int[][] out = new int[sources.length][n];
        int[] dist = new int[total], queue = new int[total];
        for (int s = 0; s < sources.length; s++) {
            java.util.Arrays.fill(dist, -1);
            int qh = 0, qt = 0;
            dist[sources[s]] = 0;
            queue[qt++] = sources[s];
            while (qh < qt) {
                int u = queue[qh++];
                for (int k = head[u]; k >= 0; k = next[k])
                    if (dist[to[k]] < 0) {
                        dist[to[k]] = dist[u] + 1;
                        queue[qt++] = to[k];
                    }
            }
            System.arraycopy(dist, 0, out[s], 0, n);
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
