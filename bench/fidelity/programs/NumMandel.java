/** Mandelbrot escape counts on a 120 x 80 grid: floating-point arithmetic. */
public class NumMandel {
    public static long run() {
        long total = 0;
        for (int py = 0; py < 80; py++)
            for (int px = 0; px < 120; px++) {
                double x0 = px / 40.0 - 2.0, y0 = py / 40.0 - 1.0, x = 0, y = 0;
                int it = 0;
                while (x * x + y * y < 4 && it < 100) { double t = x * x - y * y + x0; y = 2 * x * y + y0; x = t; it++; }
                total += it;
            }
        return total;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
