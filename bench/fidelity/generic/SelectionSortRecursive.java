/** Selection sort, recursive: the index of the minimum found by a recursive scan, swapped to the front, then the call for the rest (2,000 frames deep twice). */
public class SelectionSortRecursive {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        select(a, 0);
        return a;
    }

    static <T extends Comparable<T>> void select(T[] a, int from) {
        if (from >= a.length - 1) return;
        int min = minIndex(a, from, a.length - 1);
        if (min != from) swap(a, min, from);
        select(a, from + 1);
    }

    /** The index of the smallest of a[i..j], the first one of equals. */
    static <T extends Comparable<T>> int minIndex(T[] a, int i, int j) {
        if (i == j) return i;
        int k = minIndex(a, i + 1, j);
        return a[i].compareTo(a[k]) <= 0 ? i : k;
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
