/** Pancake sort: the largest of the unsorted prefix flipped to the front, then the prefix flipped into place. */
public class PancakeSort {
    static <T extends Comparable<T>> T[] sort(T[] a) {
        for (int size = a.length; size > 1; size--) {
            int max = 0;
            for (int i = 1; i < size; i++) if (a[i].compareTo(a[max]) > 0) max = i;
            if (max == size - 1) continue;
            if (max > 0) flip(a, max);
            flip(a, size - 1);
        }
        return a;
    }

    /** Reverses a[0..k]. */
    static <T> void flip(T[] a, int k) {
        for (int i = 0; i < k; i++, k--) {
            T t = a[i];
            a[i] = a[k];
            a[k] = t;
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
