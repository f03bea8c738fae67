/** Merge sort, bottom up: runs of width 1, 2, 4, ... merged from one array into the other, the two used in turn. */
public class MergeSortBottomUp {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        int n = a.length;
        T[] src = a, dst = a.clone();
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n), hi = Math.min(lo + 2 * width, n);
                int i = lo, j = mid;
                for (int k = lo; k < hi; k++) {
                    if (i < mid && (j >= hi || src[i].compareTo(src[j]) <= 0)) dst[k] = src[i++];
                    else dst[k] = src[j++];
                }
            }
            T[] t = src;
            src = dst;
            dst = t;
        }
        return src;
    }

    public static long run() {
        return checksum(sort(data()));
    }

    /** The input every program of this corpus sorts: the sorting corpus' 2000 numbers in [0, 100000), boxed. */
    static Integer[] data() {
        Integer[] a = new Integer[2000];
        long s = 20261122;
        for (int i = 0; i < a.length; i++) {
            s = s * 6364136223846793005L + 1442695040888963407L;
            a[i] = (int) ((s >>> 33) % 100000);
        }
        return a;
    }

    /** Depends on every element and its position: equal for all correct sorts. */
    static long checksum(Integer[] a) {
        long h = a.length;
        for (int i = 0; i < a.length; i++) h = h * 31 + a[i];
        return h;
    }

    public static void main(String[] args) { System.out.println(run()); }
}
