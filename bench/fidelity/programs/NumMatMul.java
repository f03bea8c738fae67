/** Double-precision matrix multiplication, 60 x 60. */
public class NumMatMul {
    public static long run() {
        int n = 60;
        double[][] a = new double[n][n], b = new double[n][n], c = new double[n][n];
        for (int i = 0; i < n; i++)
            for (int j = 0; j < n; j++) { a[i][j] = i + j * 0.5; b[i][j] = i - j * 0.25; }
        for (int i = 0; i < n; i++)
            for (int k = 0; k < n; k++) {
                double x = a[i][k];
                for (int j = 0; j < n; j++) c[i][j] += x * b[k][j];
            }
        return (long) (c[3][7] + c[n - 1][n - 2]);
    }
    public static void main(String[] args) { System.out.println(run()); }
}
