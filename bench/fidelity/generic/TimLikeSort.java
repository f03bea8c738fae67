/** Tim-like sort: runs of 32 insertion-sorted, then merged bottom up, a merge skipped when the pair is already in order. */
public class TimLikeSort {
    static final int RUN = 32;

    static <T extends Comparable<T>> T[] sort(T[] a) {
        int n = a.length;
        for (int lo = 0; lo < n; lo += RUN) {
            int hi = Math.min(lo + RUN, n);
            for (int i = lo + 1; i < hi; i++) {
                T key = a[i];
                int j = i - 1;
                while (j >= lo && a[j].compareTo(key) > 0) {
                    a[j + 1] = a[j];
                    j--;
                }
                a[j + 1] = key;
            }
        }
        T[] left = a.clone();
        for (int size = RUN; size < n; size *= 2) {
            for (int lo = 0; lo + size < n; lo += 2 * size) {
                int mid = lo + size, hi = Math.min(lo + 2 * size, n);
                if (a[mid - 1].compareTo(a[mid]) <= 0) continue;
                System.arraycopy(a, lo, left, 0, size);
                int i = 0, j = mid, k = lo;
                while (i < size && j < hi) a[k++] = a[j].compareTo(left[i]) < 0 ? a[j++] : left[i++];
                while (i < size) a[k++] = left[i++];
            }
        }
        return a;
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
