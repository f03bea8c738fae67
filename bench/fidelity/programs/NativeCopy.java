import java.util.Arrays;

/** System.arraycopy, clone and Arrays.copyOf on small and medium arrays. */
public class NativeCopy {
    public static long run() {
        int[] src = new int[256];
        for (int i = 0; i < src.length; i++) src[i] = i * 3;
        long s = 0;
        for (int i = 0; i < 20000; i++) {
            int[] a = src.clone();
            int[] b = Arrays.copyOf(src, 64);
            System.arraycopy(a, 8, b, 0, 32);
            s += a[i & 255] + b[i & 63];
        }
        return s;
    }
    public static void main(String[] args) { System.out.println(run()); }
}
