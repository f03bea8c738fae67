/** Binary insertion sort: binary search for the place, System.arraycopy to make room. */
public class BinInsertionSort {
    static void sort(int[] a) {
        for (int i = 1; i < a.length; i++) {
            int x = a[i], lo = 0, hi = i;
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (a[mid] <= x) lo = mid + 1;
                else hi = mid;
            }
            System.arraycopy(a, lo, a, lo + 1, i - lo);
            a[lo] = x;
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
