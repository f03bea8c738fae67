/** Heap sort: a max-heap built bottom up, iterative sift-down, the order a functional interface field holding a method reference. */
public class HeapSort {
    interface Order<T> {
        boolean less(T v, T w);
    }

    @SuppressWarnings("rawtypes")
    static final Order NATURAL = HeapSort::natural;

    @SuppressWarnings({"rawtypes", "unchecked"})
    static boolean natural(Object v, Object w) {
        return ((Comparable) v).compareTo(w) < 0;
    }

    @SuppressWarnings("unchecked")
    static <T extends Comparable<T>> T[] sort(T[] a) {
        Order<T> order = NATURAL;
        int n = a.length;
        for (int k = n / 2 - 1; k >= 0; k--) sink(a, k, n, order);
        for (int end = n - 1; end > 0; end--) {
            T t = a[0];
            a[0] = a[end];
            a[end] = t;
            sink(a, 0, end, order);
        }
        return a;
    }

    static <T> void sink(T[] a, int k, int n, Order<T> order) {
        while (2 * k + 1 < n) {
            int c = 2 * k + 1;
            if (c + 1 < n && order.less(a[c], a[c + 1])) c++;
            if (!order.less(a[k], a[c])) break;
            T t = a[k];
            a[k] = a[c];
            a[c] = t;
            k = c;
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
