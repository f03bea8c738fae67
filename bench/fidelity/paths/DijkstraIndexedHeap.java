/**
 * Dijkstra with a hand-written indexed binary heap (decrease-key) over compressed adjacency arrays.
 * Task: Shortest-path distances from each source to every node of a directed graph with positive weights, -1 where unreachable.
 */
public class DijkstraIndexedHeap {
    static int[][] shortest(int n, int[][] edges, int[] sources) {
        int[] start = new int[n + 1], to = new int[edges.length], wt = new int[edges.length];
        for (int[] e : edges) start[e[0] + 1]++;
        for (int i = 0; i < n; i++) start[i + 1] += start[i];
        int[] fill = start.clone();
        for (int[] e : edges) {
            to[fill[e[0]]] = e[1];
            wt[fill[e[0]]++] = e[2];
        }
        int[][] out = new int[sources.length][];
        for (int s = 0; s < sources.length; s++) {
            int[] d = new int[n], heap = new int[n], pos = new int[n];
            java.util.Arrays.fill(d, Integer.MAX_VALUE);
            java.util.Arrays.fill(pos, -1);
            int size = 0;
            d[sources[s]] = 0;
            heap[size] = sources[s];
            pos[sources[s]] = size++;
            while (size > 0) {
                int u = heap[0];
                pos[u] = -2;
                size--;
                if (size > 0) {
                    heap[0] = heap[size];
                    pos[heap[0]] = 0;
                    siftDown(heap, pos, d, 0, size);
                }
                for (int k = start[u]; k < start[u + 1]; k++) {
                    int v = to[k], nd = d[u] + wt[k];
                    if (pos[v] == -2 || nd >= d[v]) continue;
                    d[v] = nd;
                    if (pos[v] < 0) {
                        heap[size] = v;
                        pos[v] = size++;
                    }
                    siftUp(heap, pos, d, pos[v]);
                }
            }
            for (int v = 0; v < n; v++) if (d[v] == Integer.MAX_VALUE) d[v] = -1;
            out[s] = d;
        }
        return out;
    }

    static void siftUp(int[] heap, int[] pos, int[] d, int i) {
        int x = heap[i];
        while (i > 0) {
            int p = (i - 1) / 2;
            if (d[heap[p]] <= d[x]) break;
            heap[i] = heap[p];
            pos[heap[i]] = i;
            i = p;
        }
        heap[i] = x;
        pos[x] = i;
    }

    static void siftDown(int[] heap, int[] pos, int[] d, int i, int size) {
        int x = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) break;
            if (c + 1 < size && d[heap[c + 1]] < d[heap[c]]) c++;
            if (d[heap[c]] >= d[x]) break;
            heap[i] = heap[c];
            pos[heap[i]] = i;
            i = c;
        }
        heap[i] = x;
        pos[x] = i;
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
