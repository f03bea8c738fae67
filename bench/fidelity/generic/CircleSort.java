/** Circle sort: pairs compared from both ends of each half inwards, recursively, repeated until a round swaps nothing. */
public class CircleSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        if (a.length > 0) {
            while (circle(a, 0, a.length - 1) > 0) { }
        }
        return a;
    }

    /** One round over a[lo..hi]; returns the swaps it made. */
    static <T extends Comparable<T>> int circle(T[] a, int lo, int hi) {
        if (lo == hi) return 0;
        int swaps = 0;
        int i = lo, j = hi;
        while (i < j) {
            if (a[i].compareTo(a[j]) > 0) {
                swap(a, i, j);
                swaps++;
            }
            i++;
            j--;
        }
        if (i == j && a[i].compareTo(a[j + 1]) > 0) {
            swap(a, i, j + 1);
            swaps++;
        }
        int mid = lo + (hi - lo) / 2;
        swaps += circle(a, lo, mid);
        swaps += circle(a, mid + 1, hi);
        return swaps;
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
