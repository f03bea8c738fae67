/** Pancake sort: the maximum flipped to the top, then the stack flipped down to its place. */
public class PancakeSort {
    static void sort(int[] a) {
        for (int size = a.length; size > 1; size--) {
            int m = 0;
            for (int i = 1; i < size; i++)
                if (a[i] > a[m]) m = i;
            if (m == size - 1) continue;
            flip(a, m);
            flip(a, size - 1);
        }
    }

    /** Reverses a[0..k]. */
    static void flip(int[] a, int k) {
        for (int i = 0; i < k; i++, k--) {
            int t = a[i];
            a[i] = a[k];
            a[k] = t;
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
