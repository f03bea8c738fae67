/** Introsort: median-of-three quicksort, heap sort for a part past 2 log n levels, insertion sort below 16 elements. */
public class IntroSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        int depth = 2 * (32 - Integer.numberOfLeadingZeros(Math.max(a.length, 1)));
        introSort(a, 0, a.length - 1, depth);
        return a;
    }

    static <T extends Comparable<T>> void introSort(T[] a, int lo, int hi, int depth) {
        if (hi - lo < 16) {
            insertion(a, lo, hi);
            return;
        }
        if (depth == 0) {
            heapSort(a, lo, hi);
            return;
        }
        int mid = lo + (hi - lo) / 2;
        if (less(a[mid], a[lo])) swap(a, mid, lo);
        if (less(a[hi], a[lo])) swap(a, hi, lo);
        if (less(a[hi], a[mid])) swap(a, hi, mid);
        T pivot = a[mid];
        int i = lo, j = hi;
        while (i <= j) {
            while (less(a[i], pivot)) i++;
            while (less(pivot, a[j])) j--;
            if (i <= j) swap(a, i++, j--);
        }
        introSort(a, lo, j, depth - 1);
        introSort(a, i, hi, depth - 1);
    }

    static <T extends Comparable<T>> void insertion(T[] a, int lo, int hi) {
        for (int i = lo + 1; i <= hi; i++) {
            for (int j = i; j > lo && less(a[j], a[j - 1]); j--) swap(a, j, j - 1);
        }
    }

    static <T extends Comparable<T>> void heapSort(T[] a, int lo, int hi) {
        int n = hi - lo + 1;
        for (int k = n / 2 - 1; k >= 0; k--) sink(a, lo, k, n);
        for (int end = n - 1; end > 0; end--) {
            swap(a, lo, lo + end);
            sink(a, lo, 0, end);
        }
    }

    static <T extends Comparable<T>> void sink(T[] a, int lo, int k, int n) {
        while (2 * k + 1 < n) {
            int c = 2 * k + 1;
            if (c + 1 < n && less(a[lo + c], a[lo + c + 1])) c++;
            if (!less(a[lo + k], a[lo + c])) break;
            swap(a, lo + k, lo + c);
            k = c;
        }
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
