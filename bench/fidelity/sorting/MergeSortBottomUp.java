/** Merge sort, bottom-up: runs of width 1, 2, 4, ... merged back and forth between two arrays. */
public class MergeSortBottomUp {
    static void sort(int[] a) {
        int n = a.length;
        int[] src = a, dst = new int[n];
        for (int w = 1; w < n; w *= 2) {
            for (int lo = 0; lo < n; lo += 2 * w) {
                int mid = Math.min(lo + w, n), hi = Math.min(lo + 2 * w, n);
                int i = lo, j = mid, k = lo;
                while (i < mid && j < hi) {
                    if (src[i] <= src[j]) dst[k++] = src[i++];
                    else dst[k++] = src[j++];
                }
                while (i < mid) dst[k++] = src[i++];
                while (j < hi) dst[k++] = src[j++];
            }
            int[] t = src;
            src = dst;
            dst = t;
        }
        if (src != a) System.arraycopy(src, 0, a, 0, n);
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
