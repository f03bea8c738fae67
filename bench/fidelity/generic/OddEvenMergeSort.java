import java.util.Arrays;

/** Batcher's odd-even merge sort on a power-of-two copy (2048, padded with nulls that sort last), the first 2000 copied back. */
public class OddEvenMergeSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        int n = 1;
        while (n < a.length) n <<= 1;
        T[] b = Arrays.copyOf(a, n);
        oddEvenMergeSort(b, 0, n);
        System.arraycopy(b, 0, a, 0, a.length);
        return a;
    }

    static <T extends Comparable<T>> void oddEvenMergeSort(T[] a, int lo, int n) {
        if (n > 1) {
            int m = n / 2;
            oddEvenMergeSort(a, lo, m);
            oddEvenMergeSort(a, lo + m, m);
            oddEvenMerge(a, lo, n, 1);
        }
    }

    /** Merges the two sorted halves of the elements lo, lo + r, lo + 2r, ... of a[lo..lo+n). */
    static <T extends Comparable<T>> void oddEvenMerge(T[] a, int lo, int n, int r) {
        int step = r * 2;
        if (step < n) {
            oddEvenMerge(a, lo, n, step);
            oddEvenMerge(a, lo + r, n, step);
            for (int i = lo + r; i + r < lo + n; i += step) compareSwap(a, i, i + r);
        } else {
            compareSwap(a, lo, lo + r);
        }
    }

    static <T extends Comparable<T>> void compareSwap(T[] a, int i, int j) {
        if (greater(a[i], a[j])) {
            T t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
    }

    /** null is the padding, greater than everything. */
    static <T extends Comparable<T>> boolean greater(T v, T w) {
        if (v == null) return w != null;
        if (w == null) return false;
        return v.compareTo(w) > 0;
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
