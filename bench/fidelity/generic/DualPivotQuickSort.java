/** Dual-pivot quicksort: the first and last elements as pivots, three parts, insertion sort below 17 elements. */
public class DualPivotQuickSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        quickSort(a, 0, a.length - 1);
        return a;
    }

    static <T extends Comparable<T>> void quickSort(T[] a, int lo, int hi) {
        if (hi - lo < 17) {
            for (int i = lo + 1; i <= hi; i++) {
                for (int j = i; j > lo && less(a[j], a[j - 1]); j--) swap(a, j, j - 1);
            }
            return;
        }
        if (less(a[hi], a[lo])) swap(a, lo, hi);
        T p = a[lo], q = a[hi];
        int lt = lo + 1, gt = hi - 1, i = lo + 1;
        while (i <= gt) {
            if (less(a[i], p)) {
                swap(a, lt++, i++);
            } else if (less(q, a[i])) {
                swap(a, i, gt--);
            } else {
                i++;
            }
        }
        swap(a, lo, --lt);
        swap(a, hi, ++gt);
        quickSort(a, lo, lt - 1);
        if (less(a[lt], a[gt])) quickSort(a, lt + 1, gt - 1);
        quickSort(a, gt + 1, hi);
    }

    static <T extends Comparable<T>> boolean less(T v, T w) {
        return v.compareTo(w) < 0;
    }

    static <T> void swap(T[] a, int i, int j) {
        T t = a[i];
        a[i] = a[j];
        a[j] = t;
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
