/** Dual-pivot quicksort (Yaroslavskiy's scheme), insertion sort below 17 elements. */
public class DualPivotQuickSort {
    static void sort(int[] a) {
        sort(a, 0, a.length - 1);
    }

    static void swap(int[] a, int i, int j) {
        int t = a[i];
        a[i] = a[j];
        a[j] = t;
    }

    static void sort(int[] a, int lo, int hi) {
        if (hi - lo < 17) {
            for (int i = lo + 1; i <= hi; i++) {
                int x = a[i], j = i - 1;
                while (j >= lo && a[j] > x) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
            return;
        }
        if (a[lo] > a[hi]) swap(a, lo, hi);
        int p = a[lo], q = a[hi];
        int l = lo + 1, g = hi - 1, k = l;
        while (k <= g) {
            if (a[k] < p) {
                swap(a, k, l++);
            } else if (a[k] >= q) {
                while (a[g] > q && k < g) g--;
                swap(a, k, g--);
                if (a[k] < p) swap(a, k, l++);
            }
            k++;
        }
        l--;
        g++;
        swap(a, lo, l);
        swap(a, hi, g);
        sort(a, lo, l - 1);
        sort(a, l + 1, g - 1);
        sort(a, g + 1, hi);
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
