/** Quicksort, Dijkstra's three-way partition: less, equal and greater than the first element. */
public class QuickSort3Way {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        quickSort(a, 0, a.length - 1);
        return a;
    }

    static <T extends Comparable<T>> void quickSort(T[] a, int lo, int hi) {
        if (hi <= lo) return;
        int lt = lo, gt = hi, i = lo + 1;
        T v = a[lo];
        while (i <= gt) {
            int c = a[i].compareTo(v);
            if (c < 0) swap(a, lt++, i++);
            else if (c > 0) swap(a, i, gt--);
            else i++;
        }
        quickSort(a, lo, lt - 1);
        quickSort(a, gt + 1, hi);
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
