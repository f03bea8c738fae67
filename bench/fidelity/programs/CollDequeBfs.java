import java.util.ArrayDeque;

/** Breadth-first search on a 160x160 grid with an ArrayDeque of int[] cells. */
public class CollDequeBfs {
    public static long run() {
        int n = 160;
        int[][] dist = new int[n][n];
        for (int[] row : dist) java.util.Arrays.fill(row, -1);
        ArrayDeque<int[]> q = new ArrayDeque<>();
        q.add(new int[] { 0, 0 });
        dist[0][0] = 0;
        int[] dx = { 1, -1, 0, 0 }, dy = { 0, 0, 1, -1 };
        while (!q.isEmpty()) {
            int[] c = q.poll();
            for (int d = 0; d < 4; d++) {
                int x = c[0] + dx[d], y = c[1] + dy[d];
                if (x >= 0 && y >= 0 && x < n && y < n && dist[x][y] < 0 && ((x * 7 + y * 13) % 11 != 0)) {
                    dist[x][y] = dist[c[0]][c[1]] + 1;
                    q.add(new int[] { x, y });
                }
            }
        }
        return dist[n - 1][n - 1];
    }
    public static void main(String[] args) { System.out.println(run()); }
}
