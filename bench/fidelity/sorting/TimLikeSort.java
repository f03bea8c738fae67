/** Tim-like sort: insertion-sorted runs of 32, then bottom-up merges (left run copied out, merges skipped when already in order). */
public class TimLikeSort {
    static final int RUN = 32;

    static void sort(int[] a) {
        int n = a.length;
        for (int lo = 0; lo < n; lo += RUN) {
            int hi = Math.min(lo + RUN, n);
            for (int i = lo + 1; i < hi; i++) {
                int x = a[i], j = i - 1;
                while (j >= lo && a[j] > x) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = x;
            }
        }
        int[] tmp = new int[n];
        for (int w = RUN; w < n; w *= 2) {
            for (int lo = 0; lo + w < n; lo += 2 * w) {
                int mid = lo + w, hi = Math.min(lo + 2 * w, n);
                if (a[mid - 1] <= a[mid]) continue;
                System.arraycopy(a, lo, tmp, lo, w);
                int i = lo, j = mid, k = lo;
                while (i < mid && j < hi) a[k++] = tmp[i] <= a[j] ? tmp[i++] : a[j++];
                while (i < mid) a[k++] = tmp[i++];
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
