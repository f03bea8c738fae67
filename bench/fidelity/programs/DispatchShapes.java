/** Interface and virtual dispatch over a polymorphic array. */
public class DispatchShapes {
    interface Shape { double area(); int sides(); }
    static final class Sq implements Shape { final double s; Sq(double s) { this.s = s; } public double area() { return s * s; } public int sides() { return 4; } }
    static final class Tri implements Shape { final double b, h; Tri(double b, double h) { this.b = b; this.h = h; } public double area() { return b * h / 2; } public int sides() { return 3; } }
    static final class Circ implements Shape { final double r; Circ(double r) { this.r = r; } public double area() { return 3.14159 * r * r; } public int sides() { return 0; } }
    public static long run() {
        Shape[] s = new Shape[30];
        for (int i = 0; i < s.length; i++) s[i] = i % 3 == 0 ? new Sq(i) : i % 3 == 1 ? new Tri(i, 2) : new Circ(i);
        double total = 0;
        long sides = 0;
        for (int r = 0; r < 2000; r++)
            for (Shape x : s) { total += x.area(); sides += x.sides(); }
        return (long) total + sides;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
