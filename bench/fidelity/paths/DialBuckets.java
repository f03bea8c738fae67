/**
 * Dial's algorithm: a circular array of buckets (weights are at most 20), int-array queues.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class DialBuckets {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        int[] start = new int[n + 1], to = new int[edges.length], wt = new int[edges.length];
        int maxW = 1;
        for (int[] e : edges) {
            start[e[0] + 1]++;
            maxW = Math.max(maxW, e[2]);
        }
        for (int i = 0; i < n; i++) start[i + 1] += start[i];
        int[] fill = start.clone();
        for (int[] e : edges) {
            to[fill[e[0]]] = e[1];
            wt[fill[e[0]]++] = e[2];
        }
        int nb = maxW + 1;
        int[][] out = new int[sources.length][];
        for (int s = 0; s < sources.length; s++) {
            int[] d = new int[n];
            java.util.Arrays.fill(d, Integer.MAX_VALUE);
            int[][] bucket = new int[nb][edges.length + 1];
            int[] size = new int[nb];
            d[sources[s]] = 0;
            bucket[0][size[0]++] = sources[s];
            int pending = 1;
            for (int dist = 0; pending > 0; dist++) {
                int b = dist % nb;
                for (int i = 0; i < size[b]; i++) {
                    int u = bucket[b][i];
                    pending--;
                    if (d[u] != dist) continue;
                    for (int k = start[u]; k < start[u + 1]; k++) {
                        int nd = dist + wt[k];
                        if (nd < d[to[k]]) {
                            d[to[k]] = nd;
                            int nbk = nd % nb;
                            bucket[nbk][size[nbk]++] = to[k];
                            pending++;
                        }
                    }
                }
                size[b] = 0;
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
