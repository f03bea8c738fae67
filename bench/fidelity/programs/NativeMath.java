/** Math intrinsics: sqrt, sin, cos, log, exp, pow. */
public class NativeMath {
    public static long run() {
        double s = 0;
        for (int i = 1; i < 40000; i++) {
            double x = i * 0.001;
            s += Math.sqrt(x) + Math.sin(x) * Math.cos(x) + Math.log(x) + Math.exp(-x) + Math.pow(x, 1.5);
        }
        return (long) s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
