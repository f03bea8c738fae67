/** 64-bit mixing (splitmix-style) and modular arithmetic on longs. */
public class NumLongHash {
    public static long run() {
        long h = 0x9E3779B97F4A7C15L, acc = 0;
        for (int i = 0; i < 300000; i++) {
            h += 0x9E3779B97F4A7C15L;
            long z = h;
            z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
            z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
            acc += (z ^ (z >>> 31)) % 1000003;
        }
        return acc;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
