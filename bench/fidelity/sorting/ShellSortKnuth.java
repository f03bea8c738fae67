/** Shell sort with Knuth's gaps 1, 4, 13, 40, ... (h = 3h + 1). */
public class ShellSortKnuth {
    static void sort(int[] a) {
        int h = 1;
        while (h < a.length / 3) h = 3 * h + 1;
        for (; h >= 1; h /= 3) {
            for (int i = h; i < a.length; i++) {
                int x = a[i];
                int j = i;
                for (; j >= h && a[j - h] > x; j -= h) a[j] = a[j - h];
                a[j] = x;
            }
        }
    }

    public static long run() {
        int[] a = data();
        sort(a);
        return checksum(a);
    }

    /** The input every program of this corpus sorts: 2000 ints in [0, 100000) from a fixed-seed LCG. */
    static int[] data() {
        int[] a = new int[2000];
        long s = 20261122;
        for (int i = 0; i < a.length; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            a[i] = (int) ((s >>> 33) % 100000);
        }
        return a;
    }

    /** Depends on every element and its position: equal for all correct sorts. */
    static long checksum(int[] a) {
        long h = a.length;
        for (int i = 0; i < a.length; i++) h = h * 31 + a[i];
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
