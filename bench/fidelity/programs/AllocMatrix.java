/** Allocating and filling 2D arrays (multianewarray) repeatedly. */
public class AllocMatrix {
    public static long run() {
        long s = 0;
        for (int r = 0; r < 600; r++) {
            long[][] m = new long[12][20];
            for (int i = 0; i < m.length; i++)
                for (int j = 0; j < m[i].length; j++) m[i][j] = i * j + r;
            s += m[5][7] + m[11][19];
        }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
