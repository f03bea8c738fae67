import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Dijkstra with Edge and Node classes, Node Comparable, a PriorityQueue<Node>.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class DijkstraNodeObjects {
    static final class Edge {
        final int to, weight;
        Edge(int to, int weight) { this.to = to; this.weight = weight; }
    }

    static final class Node implements Comparable<Node> {
        final int id;
        final long dist;
        Node(int id, long dist) { this.id = id; this.dist = dist; }
        @Override public int compareTo(Node o) { return Long.compare(dist, o.dist); }
    }

    static int[][] shortest(int n, int[][] edges, int[] sources) {
        List<List<Edge>> adj = new ArrayList<>();
        for (int i = 0; i < n; i++) adj.add(new ArrayList<>());
        for (int[] e : edges) adj.get(e[0]).add(new Edge(e[1], e[2]));
        int[][] out = new int[sources.length][];
        for (int s = 0; s < sources.length; s++) {
            long[] d = new long[n];
            java.util.Arrays.fill(d, Long.MAX_VALUE);
            boolean[] done = new boolean[n];
            d[sources[s]] = 0;
            PriorityQueue<Node> pq = new PriorityQueue<>();
            pq.add(new Node(sources[s], 0));
            while (!pq.isEmpty()) {
                Node cur = pq.poll();
                if (done[cur.id]) continue;
                done[cur.id] = true;
                for (Edge e : adj.get(cur.id)) {
                    if (cur.dist + e.weight < d[e.to]) {
                        d[e.to] = cur.dist + e.weight;
                        pq.add(new Node(e.to, d[e.to]));
                    }
                }
            }
            out[s] = new int[n];
            for (int v = 0; v < n; v++) out[s][v] = d[v] == Long.MAX_VALUE ? -1 : (int) d[v];
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
