public class KhSin { static double sink; public static long run() { double s = 0, r = 0, e = 1.5; double[] v = new double[1024]; for (int k = 0; k < 1024; k++) v[k] = 0.01 * k + 0.005; long L = 0;
  for (int i = 1; i < 40000; i++) { double x = v[i & 1023]; r = Math.sin(x); float f = i; } sink = r; return (long) s; } public static void main(String[] a) { System.out.println(run()); } }
