/**
 * Bitonic sort for any length: the first half sorted descending, the second ascending, then a
 * bitonic merge whose first step compares each element with the one a power of two (the largest
 * below the length) further on.
 */
public class BitonicSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        bitonicSort(a, 0, a.length, true);
        return a;
    }

    static <T extends Comparable<T>> void bitonicSort(T[] a, int lo, int n, boolean up) {
        if (n <= 1) return;
        int m = n / 2;
        bitonicSort(a, lo, m, !up);
        bitonicSort(a, lo + m, n - m, up);
        bitonicMerge(a, lo, n, up);
    }

    static <T extends Comparable<T>> void bitonicMerge(T[] a, int lo, int n, boolean up) {
        if (n <= 1) return;
        int m = 1;
        while (m < n) m <<= 1;
        m >>= 1;
        for (int i = lo; i < lo + n - m; i++) compareSwap(a, i, i + m, up);
        bitonicMerge(a, lo, m, up);
        bitonicMerge(a, lo + m, n - m, up);
    }

    static <T extends Comparable<T>> void compareSwap(T[] a, int i, int j, boolean up) {
        if ((a[i].compareTo(a[j]) > 0) == up) {
            T t = a[i];
            a[i] = a[j];
            a[j] = t;
        }
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
